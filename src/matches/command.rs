//! An engine's command line split into words as a POSIX shell splits it (without
//! expanding anything): blanks separate words; single quotes keep everything inside;
//! double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``, which lose their
//! backslash; outside quotes a backslash keeps the next character.

/// The words of a command line, or why it cannot be split.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Is a word open (`''` is an empty word, not none)?
    let mut open = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if open {
                    words.push(std::mem::take(&mut word));
                    open = false;
                }
            }
            '\'' => {
                open = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(unclosed(line, '\'')),
                    }
                }
            }
            '"' => {
                open = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(unclosed(line, '"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unclosed(line, '"')),
                    }
                }
            }
            '\\' => {
                open = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                open = true;
                word.push(c);
            }
        }
    }
    if open {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the engine command is empty".into());
    }
    Ok(words)
}

fn unclosed(line: &str, quote: char) -> String {
    format!("the engine command `{line}` opens a {quote} quote it never closes")
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(split("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split(r#"prog 'two words' "say \"hi\"" back\ slash ''"#).unwrap(),
            ["prog", "two words", "say \"hi\"", "back slash", ""]
        );
        assert_eq!(split(r#"a"b"'c'd"#).unwrap(), ["abcd"]);
        assert_eq!(split(r#""a\nb""#).unwrap(), ["a\\nb"]);
    }

    #[test]
    fn refuses_unclosed_quotes_and_empty_commands() {
        assert!(split("prog 'open").unwrap_err().contains("' quote"));
        assert!(split("prog \"open").unwrap_err().contains("\" quote"));
        assert!(split("   ").unwrap_err().contains("empty"));
    }
}
