//! What may stand where a syntax error was found, read from the grammar itself
//! (`grammar/var.pest`), so the lists in messages never fall behind the language.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use pest_meta::ast::Expr;

const GRAMMAR: &str = include_str!("../../grammar/var.pest");

/// The grammar's rules by name.
fn rules() -> &'static HashMap<String, Expr> {
    static RULES: OnceLock<HashMap<String, Expr>> = OnceLock::new();
    RULES.get_or_init(|| {
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, GRAMMAR)
            .expect("the grammar parses (pest_derive compiled it)");
        pest_meta::parser::consume_rules(pairs)
            .expect("the grammar is valid (pest_derive compiled it)")
            .into_iter()
            .map(|r| (r.name, r.expr))
            .collect()
    })
}

/// The keywords a grammar rule may start with, in the grammar's order.
pub(crate) fn first_words(rule: &str) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(expr) = rules().get(rule) {
        first(expr, &mut words, &mut HashSet::new());
    }
    words
}

/// Adds the literal words `expr` may start with to `out`; returns whether `expr` may
/// match nothing (so what follows it may start the text too).
fn first<'a>(expr: &'a Expr, out: &mut Vec<String>, visiting: &mut HashSet<&'a str>) -> bool {
    match expr {
        Expr::Str(s) | Expr::Insens(s) => {
            if !out.contains(s) {
                out.push(s.clone());
            }
            false
        }
        Expr::Ident(name) => match rules().get_key_value(name.as_str()) {
            Some((key, e)) if visiting.insert(key.as_str()) => {
                let nullable = first(e, out, visiting);
                visiting.remove(key.as_str());
                nullable
            }
            // A recursive rule, or a built-in one (ASCII_ALPHA, ANY): no keyword.
            _ => false,
        },
        Expr::PosPred(_) | Expr::NegPred(_) => true,
        Expr::Seq(a, b) => first(a, out, visiting) && first(b, out, visiting),
        Expr::Choice(a, b) => {
            let left = first(a, out, visiting);
            first(b, out, visiting) || left
        }
        Expr::Opt(e) | Expr::Rep(e) | Expr::RepMax(e, _) => {
            first(e, out, visiting);
            true
        }
        Expr::RepOnce(e) | Expr::Push(e) => first(e, out, visiting),
        Expr::RepExact(e, n) | Expr::RepMin(e, n) | Expr::RepMinMax(e, n, _) => {
            first(e, out, visiting) || *n == 0
        }
        Expr::Range(..) | Expr::PeekSlice(..) | Expr::Skip(_) => false,
        // Variants of pest's optional grammar extras, which this grammar does not use.
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::first_words;

    #[test]
    fn declarations_are_read_from_the_grammar() {
        let words = first_words("decl");
        for w in ["game", "board", "piece", "end", "setup", "pie-rule", "pass"] {
            assert!(words.iter().any(|x| x == w), "{w} missing from {words:?}");
        }
        assert_eq!(
            first_words("result"),
            ["win", "loss", "draw", "illegal", "by-count"],
            "results in grammar order"
        );
    }
}
