//! `varsand lsp`: a language server for rule files, on standard input and output.
//! Diagnostics as the text changes (errors and warnings, with their codes), hover (a
//! piece's moves in words, a zone's squares, a keyword's meaning), completion
//! (keywords where they may stand, declared names, Betza atoms in a move string), go
//! to definition, find references, and an outline of the file.
//!
//! Names are found by reading the words of the text (outside comments and strings),
//! so navigation works in a file that does not parse yet.

use std::collections::HashMap;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::*;

use crate::check::{self, Overrides};
use crate::diagnostic::{Problem, Severity, line_col_utf16};
use crate::syntax::ast::Span;

/// Runs the server until the client shuts it down.
pub fn run() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let caps = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    };
    let caps = serde_json::to_value(caps).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| e.to_string())?;
    let mut server = Server::default();
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection
                    .handle_shutdown(&req)
                    .map_err(|e| e.to_string())?
                {
                    break;
                }
                let resp = server.request(req);
                connection
                    .sender
                    .send(Message::Response(resp))
                    .map_err(|e| e.to_string())?;
            }
            Message::Notification(n) => {
                if let Some(out) = server.notify(n) {
                    connection
                        .sender
                        .send(Message::Notification(out))
                        .map_err(|e| e.to_string())?;
                }
            }
            Message::Response(_) => {}
        }
    }
    // The writer thread ends when the connection's sender is dropped.
    drop(connection);
    io_threads.join().map_err(|e| e.to_string())
}

/// The open documents.
#[derive(Default)]
struct Server {
    docs: HashMap<Uri, String>,
}

impl Server {
    fn notify(&mut self, n: Notification) -> Option<Notification> {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
                self.docs
                    .insert(p.text_document.uri.clone(), p.text_document.text);
                p.text_document.uri
            }
            DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
                let text = p.content_changes.into_iter().last()?.text;
                self.docs.insert(p.text_document.uri.clone(), text);
                p.text_document.uri
            }
            DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
                self.docs.remove(&p.text_document.uri);
                return Some(publish(p.text_document.uri, Vec::new()));
            }
            _ => return None,
        };
        let text = self.docs.get(&uri)?;
        let diagnostics = diagnostics(&uri, text);
        Some(publish(uri, diagnostics))
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => self.with_doc(req, |text, p: HoverParams| {
                let pos = p.text_document_position_params.position;
                serde_json::to_value(hover(text, pos))
            }),
            Completion::METHOD => self.with_doc(req, |text, p: CompletionParams| {
                serde_json::to_value(completion(text, p.text_document_position.position))
            }),
            GotoDefinition::METHOD => self.with_doc(req, |text, p: GotoDefinitionParams| {
                let tp = p.text_document_position_params;
                let loc = definition(text, tp.position).map(|span| Location {
                    uri: tp.text_document.uri.clone(),
                    range: range(text, span),
                });
                serde_json::to_value(loc.map(GotoDefinitionResponse::Scalar))
            }),
            References::METHOD => self.with_doc(req, |text, p: ReferenceParams| {
                let tp = p.text_document_position;
                let uri = tp.text_document.uri.clone();
                let locs: Vec<Location> = references(text, tp.position)
                    .into_iter()
                    .map(|span| Location {
                        uri: uri.clone(),
                        range: range(text, span),
                    })
                    .collect();
                serde_json::to_value(locs)
            }),
            DocumentSymbolRequest::METHOD => self.with_doc(req, |text, _: DocumentSymbolParams| {
                serde_json::to_value(DocumentSymbolResponse::Nested(symbols(text)))
            }),
            _ => return Response::new_err(id, -32601, format!("unknown method {}", req.method)),
        };
        match result {
            Some(value) => Response::new_ok(id, value),
            None => Response::new_ok(id, serde_json::Value::Null),
        }
    }

    /// Runs `f` on the text of the document a request names.
    fn with_doc<P: serde::de::DeserializeOwned + HasDocument>(
        &self,
        req: Request,
        f: impl FnOnce(&str, P) -> Result<serde_json::Value, serde_json::Error>,
    ) -> Option<serde_json::Value> {
        let p: P = serde_json::from_value(req.params).ok()?;
        let text = self.docs.get(p.document())?.clone();
        f(&text, p).ok()
    }
}

/// Requests that name a document.
trait HasDocument {
    fn document(&self) -> &Uri;
}
impl HasDocument for HoverParams {
    fn document(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}
impl HasDocument for CompletionParams {
    fn document(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}
impl HasDocument for GotoDefinitionParams {
    fn document(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}
impl HasDocument for ReferenceParams {
    fn document(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}
impl HasDocument for DocumentSymbolParams {
    fn document(&self) -> &Uri {
        &self.text_document.uri
    }
}

fn publish(uri: Uri, diagnostics: Vec<Diagnostic>) -> Notification {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version: None,
    };
    Notification::new(PublishDiagnostics::METHOD.to_string(), params)
}

/// The editor's range of a span.
fn range(text: &str, span: Span) -> Range {
    let at = |offset: usize| {
        let (line, col) = line_col_utf16(text, offset);
        Position::new(line as u32, col as u32)
    };
    Range::new(at(span.start), at(span.end))
}

/// The byte offset of an editor position.
fn offset(text: &str, pos: Position) -> usize {
    let mut line = 0u32;
    let mut start = 0usize;
    let b = text.as_bytes();
    let mut i = 0;
    while line < pos.line && i < b.len() {
        if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            line += 1;
            start = i + 1;
        }
        i += 1;
    }
    let mut units = 0u32;
    for (k, c) in text[start..].char_indices() {
        if units >= pos.character || c == '\n' || c == '\r' {
            return start + k;
        }
        units += c.len_utf16() as u32;
    }
    text.len()
}

/// Every problem of the text, as the editor shows them.
fn diagnostics(uri: &Uri, text: &str) -> Vec<Diagnostic> {
    let checked = check::check_source(text, &Overrides::new());
    checked
        .problems
        .iter()
        .map(|p| diagnostic(uri, text, p))
        .collect()
}

fn diagnostic(uri: &Uri, text: &str, p: &Problem) -> Diagnostic {
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
                range: range(text, *s),
            },
            message: l.clone(),
        })
        .collect();
    Diagnostic {
        range: range(text, p.span),
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

// ---- words and names -----------------------------------------------------------------

/// A word of the text (outside comments and strings) and where it is.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    span: Span,
}

fn words(text: &str) -> Vec<Word<'_>> {
    crate::syntax::words(text)
        .into_iter()
        .map(|(span, text)| Word { text, span })
        .collect()
}

/// What kind of thing a declaration names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Piece,
    Zone,
    Terrain,
    Counter,
    Param,
    Board,
}

/// A declared name.
struct Declared<'a> {
    kind: Kind,
    name: Word<'a>,
    /// The declaration's keyword.
    keyword: Span,
}

/// The names the text declares: the word after `piece`, `zone`, `terrain`, `counter`,
/// `param` and a named `board`, at the top level.
fn declared(text: &str) -> Vec<Declared<'_>> {
    let ws = words(text);
    let mut out = Vec::new();
    for pair in ws.windows(2) {
        let kind = match pair[0].text {
            "piece" => Kind::Piece,
            "zone" => Kind::Zone,
            "terrain" => Kind::Terrain,
            "counter" => Kind::Counter,
            "param" => Kind::Param,
            "board" if !pair[1].text.starts_with(|c: char| c.is_ascii_digit()) => Kind::Board,
            _ => continue,
        };
        if depth_at(text, pair[0].span.start) == 0 {
            out.push(Declared {
                kind,
                name: pair[1],
                keyword: pair[0].span,
            });
        }
    }
    out
}

/// How many braces are open before `at` (outside comments and strings).
fn depth_at(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < at.min(b.len()) {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < at && i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    depth
}

/// The word at an editor position.
fn word_at(text: &str, pos: Position) -> Option<Word<'_>> {
    let at = offset(text, pos);
    words(text)
        .into_iter()
        .find(|w| w.span.start <= at && at <= w.span.end)
}

fn definition(text: &str, pos: Position) -> Option<Span> {
    let w = word_at(text, pos)?;
    declared(text)
        .into_iter()
        .find(|d| d.name.text == w.text)
        .map(|d| d.name.span)
}

fn references(text: &str, pos: Position) -> Vec<Span> {
    let Some(w) = word_at(text, pos) else {
        return Vec::new();
    };
    if !declared(text).iter().any(|d| d.name.text == w.text) {
        return Vec::new();
    }
    words(text)
        .into_iter()
        .filter(|x| x.text == w.text)
        .map(|x| x.span)
        .collect()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given
fn symbols(text: &str) -> Vec<DocumentSymbol> {
    declared(text)
        .into_iter()
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
                detail: Some(format!("{:?}", d.kind).to_lowercase()),
                kind,
                tags: None,
                deprecated: None,
                range: range(text, Span::new(d.keyword.start, d.name.span.end)),
                selection_range: range(text, d.name.span),
                children: None,
            }
        })
        .collect()
}

// ---- hover -----------------------------------------------------------------------------

fn hover(text: &str, pos: Position) -> Option<Hover> {
    let w = word_at(text, pos)?;
    let words_of = match declared(text).iter().find(|d| d.name.text == w.text) {
        Some(d) => describe_name(text, d.kind, w.text)?,
        None => keyword_meaning(w.text)?.to_string(),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: words_of,
        }),
        range: Some(range(text, w.span)),
    })
}

/// A declared name in words: a piece's moves as the `rules` summary says them, a
/// zone's squares. Needs a file that checks.
fn describe_name(text: &str, kind: Kind, name: &str) -> Option<String> {
    let decl_index = declared(text)
        .iter()
        .filter(|d| d.kind == kind)
        .position(|d| d.name.text == name)?;
    let rules = check::load(text, &Overrides::new()).ok();
    Some(match (kind, rules) {
        (Kind::Piece, Some(rules)) => {
            let p = rules.pieces().get(decl_index)?;
            let mut s = format!("**piece {name}** — {} `{}`\n", p.name, p.betza);
            for (id, _) in rules.moves_of(decl_index) {
                s += &format!("\n- {}", crate::describe::describe_generator(&rules, id));
            }
            s
        }
        (Kind::Zone, Some(rules)) => {
            let z = rules.zone(rules.zone_by_name(name)?);
            let squares = |side: usize| -> String {
                (0..rules.cell_count())
                    .filter(|&c| z.cells[side][c])
                    .map(|c| rules.geometry().name(c as u16).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let players = rules.players();
            if z.cells[0] == z.cells[1] {
                format!("**zone {name}**: {}", squares(0))
            } else {
                format!(
                    "**zone {name}**\n\n- {}: {}\n- {}: {}",
                    players[0].name,
                    squares(0),
                    players[1].name,
                    squares(1)
                )
            }
        }
        (kind, _) => format!("**{} {name}**", format!("{kind:?}").to_lowercase()),
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
        "royal" => "`royal`: may not be left attacked (check).",
        "promotes" => "`promotes on|from|in ZONE to LETTERS [optional] [only-lost]`: promotion.",
        "en-passant" => "`en-passant`: its double steps may be taken en passant.",
        "castle" => "`castle PLAYER LETTER K-K' with R-R'`: castling.",
        "end" => "`end { RULE RESULT ... }`: how the game ends.",
        "setup" => "`setup \"POSITION\"`: the start position.",
        "drop" => "`drop in ZONE`: pieces in hand may be placed on the zone's empty squares.",
        "drops" => {
            "`drops [in ZONE] [if CONDITIONS]`: this piece's own rule for placement from the hand."
        }
        "flight" => {
            "`flight from SQUARES to SQUARES [same-colour]`: a move kind for pieces that fly."
        }
        "flip" => "`flip PLAYER in ZONE [if own PIECE in ZONE]`: when two-faced pieces may flip.",
        "pass" => "`pass [if CONDITIONS]`: the side to move may pass.",
        "forbid" => {
            "`forbid dead-squares | mate-by-drop PIECE | check`: moves that break the rule are illegal."
        }
        "captures-to-hand" => "`captures-to-hand`: captured pieces go to the capturer's hand.",
        "pie-rule" => "`pie-rule`: the second player may swap sides instead of the first move.",
        "counter" => {
            "`counter NAME`: a number per player, read by conditions and changed by effects."
        }
        "checkmate" => "`checkmate RESULT`: no legal move while a royal piece is attacked.",
        "stalemate" => "`stalemate RESULT`: no legal move while not in check.",
        "reached" => {
            "`reached PIECE in ZONE [with-reply] RESULT`: a piece reaching a zone ends the game."
        }
        "bare-king" => "`bare-king RESULT`: a player left with only royal pieces.",
        _ => return None,
    })
}

// ---- completion --------------------------------------------------------------------

fn completion(text: &str, pos: Position) -> Vec<CompletionItem> {
    let at = offset(text, pos);
    let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.matches('"').count() % 2 == 1 && before.contains("moves") {
        return betza_items();
    }
    let keywords: Vec<String> = match enclosing_block(text, at) {
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
    for d in declared(text) {
        let kind = match d.kind {
            Kind::Piece => CompletionItemKind::CLASS,
            Kind::Zone => CompletionItemKind::MODULE,
            Kind::Terrain => CompletionItemKind::ENUM,
            _ => CompletionItemKind::VARIABLE,
        };
        items.push(CompletionItem {
            label: d.name.text.to_string(),
            kind: Some(kind),
            detail: Some(format!("{:?}", d.kind).to_lowercase()),
            ..CompletionItem::default()
        });
    }
    items
}

/// The keyword of the declaration whose block is open at `at`, if one.
fn enclosing_block(text: &str, at: usize) -> Option<&'static str> {
    if depth_at(text, at) == 0 {
        return None;
    }
    let ws = words(text);
    ws.iter()
        .rev()
        .filter(|w| w.span.start < at && depth_at(text, w.span.start) == 0)
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
        let grammar = include_str!("../editors/vscode/syntaxes/var.tmLanguage.json");
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
