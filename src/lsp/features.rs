//! What the language server answers about a document: diagnostics, hover, completion,
//! definition, references and the outline. Each works on a [`Document`] read once for
//! the request, so that it costs about the text's length.

use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, DocumentSymbol, GotoDefinitionResponse, Hover, HoverContents, Location,
    MarkupContent, MarkupKind, NumberOrString, Position, SymbolKind, Uri,
};

use super::document::{Declared, Document, Kind};
use crate::check::Overrides;
use crate::diagnostic::{Problem, Severity};
use crate::ids::{Cell, PieceKind};
use crate::loader;
use crate::syntax::ast::Span;

/// Every problem of the text, as the editor shows them, and whether the text checks
/// (it loads as rules).
pub fn diagnostics(uri: &Uri, text: &str) -> (Vec<Diagnostic>, bool) {
    let checked = loader::check_source(text, &Overrides::new());
    let doc = Document::new(text);
    let shown = checked
        .problems
        .iter()
        .map(|p| diagnostic(uri, &doc, p))
        .collect();
    (shown, checked.rules.is_some())
}

fn diagnostic(uri: &Uri, doc: &Document, p: &Problem) -> Diagnostic {
    let message = match &p.help {
        Some(h) => format!("{}\nhelp: {h}", p.message),
        None => p.message.clone(),
    };
    let related: Vec<DiagnosticRelatedInformation> = p
        .related
        .iter()
        .map(|(s, l)| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: doc.range(*s),
            },
            message: l.clone(),
        })
        .collect();
    Diagnostic {
        range: doc.range(p.span),
        severity: Some(match p.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(p.code.to_string())),
        source: Some("varsand".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

// ---- navigation ----------------------------------------------------------------------

/// The declaration of the name at a position.
pub fn definition(doc: &Document, uri: &Uri, pos: Position) -> Option<GotoDefinitionResponse> {
    let w = doc.word_at(pos)?;
    let d = doc.declaration(w.text)?;
    Some(GotoDefinitionResponse::Scalar(Location {
        uri: uri.clone(),
        range: doc.range(d.name.span),
    }))
}

/// Every use of the declared name at a position, its declaration included.
pub fn references(doc: &Document, uri: &Uri, pos: Position) -> Vec<Location> {
    let Some(w) = doc.word_at(pos) else {
        return Vec::new();
    };
    if doc.declaration(w.text).is_none() {
        return Vec::new();
    }
    doc.words
        .iter()
        .filter(|x| x.text == w.text)
        .map(|x| Location {
            uri: uri.clone(),
            range: doc.range(x.span),
        })
        .collect()
}

/// The outline: every declaration, in the text's order.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given
pub fn symbols(doc: &Document) -> Vec<DocumentSymbol> {
    doc.declared
        .iter()
        .map(|d| {
            let kind = match d.kind {
                Kind::Piece => SymbolKind::CLASS,
                Kind::Zone => SymbolKind::NAMESPACE,
                Kind::Terrain => SymbolKind::ENUM,
                Kind::Counter => SymbolKind::VARIABLE,
                Kind::Param => SymbolKind::CONSTANT,
                Kind::Board => SymbolKind::STRUCT,
            };
            DocumentSymbol {
                name: d.name.text.to_string(),
                detail: Some(d.kind.word().to_string()),
                kind,
                tags: None,
                deprecated: None,
                range: doc.range(Span::new(d.keyword.start, d.name.span.end)),
                selection_range: doc.range(d.name.span),
                children: None,
            }
        })
        .collect()
}

// ---- hover -----------------------------------------------------------------------------

/// A declared name in words, or a keyword's meaning. While the text does not check,
/// pieces and zones are read from `last_good`, the document's last text that did.
pub fn hover(doc: &Document, pos: Position, last_good: Option<&str>) -> Option<Hover> {
    if let Some(h) = betza_hover(doc, pos) {
        return Some(h);
    }
    let w = doc.word_at(pos)?;
    let words_of = match doc.declaration(w.text) {
        Some(d) => describe_name(doc.text, d, last_good)?,
        None => keyword_meaning(w.text)?.to_string(),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: words_of,
        }),
        range: Some(doc.range(w.span)),
    })
}

/// Inside the Betza string of a `moves` line: the string component by component,
/// each in words (or what is wrong with it).
fn betza_hover(doc: &Document, pos: Position) -> Option<Hover> {
    let at = doc.offset(pos)?;
    let text = doc.text;
    let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.matches('"').count().is_multiple_of(2) || !before.contains("moves") {
        return None;
    }
    let open = line_start + before.rfind('"')? + 1;
    let close = open + text[open..].find(['"', '\n'])?;
    let betza = &text[open..close];
    let value = match crate::syntax::betza::parse(betza) {
        Ok(parts) => {
            let mut s = format!("**moves \"{betza}\"**\n");
            for m in &parts {
                let (from, len) = m.at;
                let written = betza.get(from..from + len).unwrap_or(betza);
                s += &format!("\n- `{written}`: {}", crate::describe::describe_move(m));
            }
            s
        }
        Err(e) => format!("**moves \"{betza}\"**: {} ({})", e.message, e.help),
    };
    let span = Span {
        start: open,
        end: close,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(doc.range(span)),
    })
}

/// A declared name in words: a piece's moves as the `rules` summary says them, a
/// zone's squares. Needs a file that checks: this text, else the last good one (where
/// the name is found again by its declaration, wherever it now stands), said so;
/// otherwise only what the name is.
fn describe_name(text: &str, d: &Declared, last_good: Option<&str>) -> Option<String> {
    let name = d.name.text;
    let load = |text: &str| loader::load(text, &Overrides::new()).ok();
    let read = match d.kind {
        Kind::Piece | Kind::Zone => match load(text) {
            Some(rules) => Some((rules, d.nth_of_kind, false)),
            None => last_good.and_then(|old| {
                let before = Document::new(old);
                let then = before.declaration(name).filter(|e| e.kind == d.kind)?;
                Some((load(old)?, then.nth_of_kind, true))
            }),
        },
        _ => None,
    };
    let mut words = match (d.kind, &read) {
        (Kind::Piece, Some((rules, nth, _))) => {
            let p = rules.pieces().get(*nth)?;
            let mut s = format!("**piece {name}** — {} `{}`\n", p.name, p.betza);
            for (id, _) in rules.moves_of(PieceKind::new(*nth)) {
                s += &format!("\n- {}", crate::describe::describe_generator(rules, id));
            }
            s
        }
        (Kind::Zone, Some((rules, _, _))) => describe_zone(rules, name)?,
        (kind, _) => format!("**{} {name}**", kind.word()),
    };
    if read.is_some_and(|(_, _, old)| old) {
        words += "\n\n*(as the file last checked: it has errors now)*";
    }
    Some(words)
}

/// A zone's squares, for both players or each.
fn describe_zone(rules: &crate::Rules, name: &str) -> Option<String> {
    let z = rules.zone(rules.zone_by_name(name)?);
    let squares = |side: usize| -> String {
        (0..rules.cell_count())
            .filter(|&c| z.cells[side][c])
            .map(|c| rules.geometry().name(Cell::new(c)).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let players = rules.players();
    Some(if z.cells[0] == z.cells[1] {
        format!("**zone {name}**: {}", squares(0))
    } else {
        format!(
            "**zone {name}**\n\n- {}: {}\n- {}: {}",
            players[0].name,
            squares(0),
            players[1].name,
            squares(1)
        )
    })
}

/// What a keyword means, in a line.
fn keyword_meaning(word: &str) -> Option<&'static str> {
    Some(match word {
        "game" => "`game \"Name\"`: the game's name.",
        "board" => {
            "`board [NAME] FILES x RANKS`: a rectangular board; the first is the main board."
        }
        "players" => {
            "`players FIRST SECOND`: the two sides; the first plays the upper-case pieces and moves up."
        }
        "param" => "`param NAME = N [in LOW..HIGH]`: a number a user may change with `--set`.",
        "zone" => {
            "`zone NAME = SQUARES` or `zone NAME { PLAYER: SQUARES ... }`: a set of squares, per player."
        }
        "terrain" => {
            "`terrain NAME LETTER { blocks ... cleared-by ... crossed-by ... }`: something standing on squares."
        }
        "piece" => {
            "`piece NAME [\"Shown name\"] LETTER [for PLAYER] { PROPERTIES }`: a kind of piece."
        }
        "moves" => {
            "`moves \"BETZA\" [if CONDITIONS] [then EFFECTS]`: how the piece moves, in Betza notation."
        }
        "in-place" => {
            "`moves in-place [if CONDITIONS] then becomes PIECE`: the piece stays on its square and turns into PIECE (written `d5d5f`)."
        }
        "becomes" => {
            "`then becomes PIECE`: the piece turns into PIECE where the move ends (written with its letter, `d5e6f`)."
        }
        "checking" => {
            "`if checking` / `unless checking`: read once the move is made: it leaves a royal piece of the opponent attacked (by discovery too)."
        }
        "attacking" => {
            "`if attacking` / `unless attacking`: read once the move is made: the piece, where it landed, could capture a piece of the opponent."
        }
        "royal" => "`royal`: may not be left attacked (check).",
        "glyph" => {
            "`glyph \"TEXT\"` or `glyph { PLAYER: \"TEXT\" ... }`: the symbol or short text (at most 3 characters) pictures draw on the piece."
        }
        "image" => {
            "`image NAME`: pictures draw the piece as one of varsand's drawings (pictures/pieces.svg)."
        }
        "promotes" => {
            "`promotes on|from|in ZONE to LETTERS [optional] [only-lost] [capturing]`: promotion."
        }
        "capturing" => {
            "`capturing`, after a promotion's letters: the piece promotes only on a move that captures (a quiet move stays as it is)."
        }
        "en-passant" => "`en-passant`: its double steps may be taken en passant.",
        "castle" => "`castle PLAYER LETTER K-K' with R-R'`: castling.",
        "end" => "`end { RULE RESULT ... }`: how the game ends.",
        "setup" => "`setup \"POSITION\"`: the start position.",
        "drop" => "`drop in ZONE`: pieces in hand may be placed on the zone's empty squares.",
        "must-drop" => {
            "`must-drop`: while a player holds pieces in hand and may place one, placing is their only move (a placement phase)."
        }
        "castling-by-drop" => {
            "`castling-by-drop KING with PARTNER`: placing a KING on a castling's square with its PARTNER on the partner's square (or the PARTNER with the KING there) gives that castling's right."
        }
        "both-colours" | "both-colors" => {
            "`both-colours`: a player's pieces of this kind are placed from the hand on squares of both colours (a bishop pair on opposite colours)."
        }
        "gating" => {
            "`gating in ZONE`: a piece leaving a square of the zone it has stood on since the start may bring a piece from the hand onto it (`b1c3h`; castling too: `e1g1h`, `h1e1h`)."
        }
        "drops" => {
            "`drops [in ZONE] [if CONDITIONS] [then EFFECTS]`: this piece's own rule for placement from the hand; on a face kept in hand as another piece (`in-hand-as`), it places this face from that piece's hand (`+S@b3`)."
        }
        "clones" => {
            "`clones [if CONDITIONS] [then EFFECTS]`: a copy of the piece, from an endless supply, may be placed on an empty square next to one of its player's pieces of its kind (written `P@f2`)."
        }
        "convert" => {
            "`then convert enclosed|adjacent`: enemy pieces turn to the mover's side: those enclosed on a line between the landing square and another own piece, or those around the landing square."
        }
        "converts" => {
            "`if converts`: the line's own `convert` effect turns at least one enemy piece (a placement legal only where it encloses)."
        }
        "when-stuck" => {
            "`pass when-stuck`: a player with no other legal move and a piece on the board passes."
        }
        "board-full" => {
            "`board-full RESULT`: every square of the main board holds a piece; the game ends at once."
        }
        "by-count" => {
            "`by-count`, a result: the player with more pieces on the board wins; as many draw."
        }
        "flight" => {
            "`flight from SQUARES to SQUARES [same-colour]`: a move kind for pieces that fly."
        }
        "flip" => "`flip PLAYER in ZONE [if own PIECE in ZONE]`: when two-faced pieces may flip.",
        "pass" => {
            "`pass [if CONDITIONS]`: the side to move may pass; `pass when-stuck`: only when it has no other legal move."
        }
        "forbid" => {
            "`forbid dead-squares | mate-by-drop PIECE | check`: moves that break the rule are illegal."
        }
        "captures-to-hand" => "`captures-to-hand`: captured pieces go to the capturer's hand.",
        "on-file" => {
            "`no own|enemy PIECE on-file`: no such piece stands on the file the move ends on (for drops: no second one of a kind on a file)."
        }
        "fewer-than" => {
            "`fewer-than N own|enemy PIECE [on-file]`: fewer than N such pieces stand on the file the move ends on (a drop that may not make a third on a file: `fewer-than 2`), or without `on-file` on the board (`fewer-than 2 own Pawn`: the last pawn)."
        }
        "in-check" => {
            "`if in-check` / `unless in-check`: the mover is in check before the move (moves that never capture)."
        }
        "must-capture" => {
            "`must-capture`: when a capture is legal, only captures are (en passant included)."
        }
        "duple-check" => {
            "`duple-check`: a player is in check only when all its royal pieces are attacked at once; one of several may be left attacked (and taken)."
        }
        "captures-explode" => {
            "`captures-explode [except PIECE, ...]`: a capture removes the capturing piece, the piece taken and every piece on the eight squares around the target, but those of the kinds listed; a move may not blow up its own royal piece, and royal pieces side by side do not check each other."
        }
        "unattacked" => {
            "`reached PIECE in ZONE unattacked RESULT`: the piece counts only on a square no enemy piece attacks (read after every move, for both players)."
        }
        "except" => {
            "`except PIECE, ...`: the kinds of piece an explosion spares on the squares around its target."
        }
        "on" => {
            "`on check then counter NAME N`: a move that gives check changes the mover's counter."
        }
        "pieces-left" => {
            "`pieces-left [PIECE] OP N RESULT`: a player with so many pieces (on the board and in hand) gets RESULT at once."
        }
        "pie-rule" => "`pie-rule`: the second player may swap sides instead of the first move.",
        "counter" => {
            "`counter NAME`: a number per player, read by conditions, changed by effects and `on check`; in `end`, `counter NAME OP N RESULT`."
        }
        "checkmate" => "`checkmate RESULT`: no legal move while a royal piece is attacked.",
        "stalemate" => "`stalemate RESULT`: no legal move while not in check.",
        "reached" => {
            "`reached PIECE in ZONE [unattacked] [with-reply] RESULT`: a piece reaching a zone ends the game; `with-reply`: the other player answers first (a piece that is not royal wins only if one still stands in the zone after the answer)."
        }
        "bare-king" => "`bare-king RESULT`: a player left with only royal pieces.",
        _ => return None,
    })
}

// ---- completion --------------------------------------------------------------------

/// What may be written at a position: Betza atoms in a move string, else the keywords
/// of the enclosing block and the declared names. Nothing past the end of the text.
pub fn completion(doc: &Document, pos: Position) -> Vec<CompletionItem> {
    let Some(at) = doc.offset(pos) else {
        return Vec::new();
    };
    let text = doc.text;
    let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.matches('"').count() % 2 == 1 && before.contains("moves") {
        return betza_items();
    }
    if let Some(items) = in_a_clause(doc, before) {
        return items;
    }
    let keywords: Vec<String> = match enclosing_block(doc, at) {
        Some("piece") => crate::syntax::first_words("piece_prop"),
        Some("end") => {
            let mut k = crate::syntax::first_words("end_condition");
            k.extend(crate::syntax::first_words("result"));
            k
        }
        Some("terrain") => crate::syntax::first_words("terrain_prop"),
        Some(_) => Vec::new(),
        None => crate::syntax::first_words("decl"),
    };
    let mut items: Vec<CompletionItem> = keywords
        .into_iter()
        .map(|k| CompletionItem {
            label: k,
            kind: Some(CompletionItemKind::KEYWORD),
            ..CompletionItem::default()
        })
        .collect();
    items.extend(doc.declared.iter().map(name_item));
    items
}

/// What the grammar accepts after the words before the cursor on its line, when they
/// open a clause: a condition after `if`/`and`, what `unless`/`or` take, an effect after
/// `then` (or a comma in the effects), a zone where a zone is named (`promotes on`,
/// `from`, `to`, `drops in`, `in` of a flip), a piece where a piece is named
/// (`captures`, `over`, `closer-to own`). `None`: no clause is open (the block decides).
fn in_a_clause(doc: &Document, before: &str) -> Option<Vec<CompletionItem>> {
    // Quoted text (a Betza string, a name) is no keyword; the word being typed is not
    // one yet.
    let unquoted: String = before.split('"').step_by(2).collect::<Vec<_>>().join(" ");
    let spaced = unquoted.replace(',', " , ");
    let mut words: Vec<&str> = spaced.split_whitespace().collect();
    if !before.ends_with(char::is_whitespace) && !before.ends_with(',') {
        words.pop();
    }
    let last = *words.last()?;
    let previous = words.len().checked_sub(2).map(|i| words[i]);
    let keywords = |rule: &str| -> Vec<CompletionItem> {
        crate::syntax::first_words(rule)
            .into_iter()
            .map(|k| CompletionItem {
                label: k,
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            })
            .collect()
    };
    let names = |kind: Kind| -> Vec<CompletionItem> {
        doc.declared
            .iter()
            .filter(|d| d.kind == kind)
            .map(name_item)
            .collect()
    };
    let effects_open = words.contains(&"then");
    let promoting = words.contains(&"promotes");
    // A parameter's range (`in 1..9`) and a promotion's letters (`to Q R`) are no
    // zones: the block decides there.
    if words.first() == Some(&"param") || (promoting && last == "to") {
        return None;
    }
    Some(match (previous, last) {
        (_, "if" | "and") => keywords("condition"),
        (_, "unless" | "or") => ["captures", "over"]
            .map(|k| CompletionItem {
                label: k.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            })
            .to_vec(),
        (_, "then") => keywords("effect"),
        (_, ",") if effects_open => keywords("effect"),
        (_, "promotes") => keywords("promo_when"),
        (Some("promotes"), "on" | "from" | "in") | (_, "from" | "to") | (Some(_), "in") => {
            names(Kind::Zone)
        }
        (_, "captures" | "over") | (Some("closer-to"), "own" | "enemy") => names(Kind::Piece),
        _ => return None,
    })
}

/// A declared name as a completion.
fn name_item(d: &Declared) -> CompletionItem {
    let kind = match d.kind {
        Kind::Piece => CompletionItemKind::CLASS,
        Kind::Zone => CompletionItemKind::MODULE,
        Kind::Terrain => CompletionItemKind::ENUM,
        _ => CompletionItemKind::VARIABLE,
    };
    CompletionItem {
        label: d.name.text.to_string(),
        kind: Some(kind),
        detail: Some(d.kind.word().to_string()),
        ..CompletionItem::default()
    }
}

/// The keyword of the declaration whose block is open at `at`, if one.
fn enclosing_block(doc: &Document, at: usize) -> Option<&'static str> {
    if doc.depth_at(at) == 0 {
        return None;
    }
    doc.words
        .iter()
        .rev()
        .filter(|w| w.span.start < at && w.depth == 0)
        .find_map(|w| match w.text {
            "piece" => Some("piece"),
            "end" => Some("end"),
            "terrain" => Some("terrain"),
            "zone" => Some("zone"),
            _ => None,
        })
}

fn betza_items() -> Vec<CompletionItem> {
    let atoms = [
        ("W", "one step orthogonally"),
        ("F", "one step diagonally"),
        ("K", "king: W and F"),
        ("D", "two steps orthogonally, leaping"),
        ("A", "two steps diagonally, leaping"),
        ("H", "three steps orthogonally, leaping"),
        ("G", "three steps diagonally, leaping"),
        ("N", "knight: the (1,2) leap"),
        ("C", "camel: the (1,3) leap"),
        ("Z", "zebra: the (2,3) leap"),
        ("R", "rook: rides orthogonally"),
        ("B", "bishop: rides diagonally"),
        ("Q", "queen: rides both ways"),
    ];
    let modifiers = [
        ("m", "moves only, no capture"),
        ("c", "captures only"),
        ("f", "forward"),
        ("b", "backward"),
        ("l", "left"),
        ("r", "right"),
        ("v", "vertical"),
        ("s", "sideways"),
        ("p", "hops over one piece (cannon)"),
        ("g", "grasshopper: lands just beyond the piece it jumps"),
        ("n", "lame: the squares on the way must be empty"),
        ("i", "only as the piece's first move"),
    ];
    atoms
        .iter()
        .map(|(a, d)| (a, d, CompletionItemKind::CONSTANT))
        .chain(
            modifiers
                .iter()
                .map(|(a, d)| (a, d, CompletionItemKind::OPERATOR)),
        )
        .map(|(label, detail, kind)| CompletionItem {
            label: label.to_string(),
            kind: Some(kind),
            detail: Some(detail.to_string()),
            ..CompletionItem::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::syntax::first_words;

    /// The editors' highlighting grammar knows every keyword the language has.
    #[test]
    fn the_textmate_grammar_names_every_keyword() {
        let grammar = include_str!("../../editors/vscode/syntaxes/var.tmLanguage.json");
        for rule in [
            "decl",
            "piece_prop",
            "terrain_prop",
            "end_condition",
            "result",
            "forbid_item",
        ] {
            for word in first_words(rule) {
                assert!(
                    grammar.contains(&format!("|{word}|"))
                        || grammar.contains(&format!("({word}|"))
                        || grammar.contains(&format!("|{word})")),
                    "`{word}` ({rule}) is not highlighted by editors/vscode/syntaxes/var.tmLanguage.json"
                );
            }
        }
    }
}
