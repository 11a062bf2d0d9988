//! `varsand lsp`: a language server for rule files, on standard input and output.
//! Diagnostics as the text changes (errors and warnings, with their codes), hover (a
//! piece's moves in words, a zone's squares, a keyword's meaning), completion
//! (keywords where they may stand, declared names, Betza atoms in a move string), go
//! to definition, find references, and an outline of the file.
//!
//! Names are found by reading the words of the text (outside comments and strings),
//! so navigation works in a file that does not parse yet.
//!
//! The server never ends on what a client sends: a broken frame is skipped or answered
//! with a JSON-RPC error (see [`transport`]), a message that is not a request, a
//! notification or a response is an invalid request, bad parameters are invalid
//! parameters, and a panic while answering is an internal error. Only `exit` and the end
//! of the input end it.

mod document;
mod features;
mod transport;

use std::collections::HashMap;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit, LogMessage,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, Initialize, References,
    Request as _, Shutdown,
};
use lsp_types::{
    CompletionOptions, CompletionParams, Diagnostic, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentSymbolParams,
    DocumentSymbolResponse, GotoDefinitionParams, HoverParams, HoverProviderCapability,
    InitializeResult, LogMessageParams, MessageType, OneOf, PublishDiagnosticsParams,
    ReferenceParams, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use document::Document;
pub use transport::MAX_LSP_MESSAGE_BYTES;
use transport::{FrameReader, Incoming, write_message};

/// JSON-RPC's error codes, and the protocol's own.
mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    pub const SERVER_NOT_INITIALIZED: i64 = -32002;
}

/// Runs the server until the client sends `exit` or closes its output. `exit` before
/// `shutdown` is an error (the protocol's exit status 1).
pub fn run() -> Result<(), String> {
    let mut reader = FrameReader::new(io::stdin().lock());
    let mut out = io::stdout().lock();
    let mut server = Server::default();
    loop {
        let incoming = match reader.next_frame() {
            Ok(Some(incoming)) => incoming,
            Ok(None) => return Ok(()),
            Err(e) => return Err(format!("cannot read standard input: {e}")),
        };
        for reply in server.incoming(incoming) {
            write_message(&mut out, &reply)
                .map_err(|e| format!("cannot write to standard output: {e}"))?;
        }
        if let Some(exit) = server.exit.take() {
            return exit;
        }
    }
}

/// Where the server is in the protocol's life cycle.
#[derive(Default, PartialEq)]
enum Stage {
    /// Before `initialize`: only it (and `exit`) is accepted.
    #[default]
    Uninitialized,
    Running,
    /// After `shutdown`: only `exit` is accepted.
    ShuttingDown,
}

/// The open documents and the life cycle.
#[derive(Default)]
struct Server {
    docs: HashMap<Uri, String>,
    /// Per document, its last text that checked: hover reads the pieces and zones
    /// from it while the file is broken.
    last_good: HashMap<Uri, String>,
    stage: Stage,
    /// Set by `exit`: how the server ends.
    exit: Option<Result<(), String>>,
}

/// A JSON-RPC error: its code and message.
struct RpcError {
    code: i64,
    message: String,
}

impl RpcError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
        }
    }
}

/// A message as JSON-RPC reads it.
enum Message {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    Response,
    /// Valid JSON that is none of the above: the id if one could be read, and why.
    Invalid {
        id: Value,
        why: String,
    },
}

impl Server {
    /// What to write back for a frame of the input.
    fn incoming(&mut self, incoming: Incoming) -> Vec<Value> {
        match incoming {
            Incoming::Json(value) => self.message(classify(value)),
            Incoming::NotJson(why) => vec![error_response(
                Value::Null,
                RpcError::new(code::PARSE_ERROR, format!("the body is not JSON: {why}")),
            )],
            Incoming::TooLarge { size, id } => vec![error_response(
                id.unwrap_or(Value::Null),
                RpcError::new(
                    code::INVALID_REQUEST,
                    format!(
                        "a message of {size} bytes was skipped: the limit is {MAX_LSP_MESSAGE_BYTES} bytes"
                    ),
                ),
            )],
            // No id can be known: a notification says what was skipped.
            Incoming::Unframed(why) => vec![log(MessageType::WARNING, why)],
        }
    }

    fn message(&mut self, message: Message) -> Vec<Value> {
        match message {
            Message::Request { id, method, params } => {
                let answer = self.request(&method, params);
                vec![match answer {
                    Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                    Err(e) => error_response(id, e),
                }]
            }
            Message::Notification { method, params } => self.notification(&method, params),
            // The server sends no requests, so a response answers nothing: dropped (and
            // never answered, which could start an endless exchange of errors).
            Message::Response => Vec::new(),
            Message::Invalid { id, why } => {
                vec![error_response(
                    id,
                    RpcError::new(code::INVALID_REQUEST, why),
                )]
            }
        }
    }

    /// The answer to a request, by the life cycle's stage.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, RpcError> {
        match (&self.stage, method) {
            (Stage::Uninitialized, Initialize::METHOD) => {
                // The client's capabilities change nothing the server does, so its
                // parameters are not read: a capability unknown to the protocol types
                // must not keep an editor from starting the server.
                self.stage = Stage::Running;
                to_json(initialize_result())
            }
            (Stage::Uninitialized, _) => Err(RpcError::new(
                code::SERVER_NOT_INITIALIZED,
                format!("`{method}` before `initialize`: the server is not initialized yet"),
            )),
            (Stage::ShuttingDown, _) => Err(RpcError::new(
                code::INVALID_REQUEST,
                format!("`{method}` after `shutdown`: only the `exit` notification may follow"),
            )),
            (Stage::Running, Initialize::METHOD) => Err(RpcError::new(
                code::INVALID_REQUEST,
                "the server is already initialized",
            )),
            (Stage::Running, Shutdown::METHOD) => {
                self.stage = Stage::ShuttingDown;
                Ok(Value::Null)
            }
            (Stage::Running, _) => self.answer_catching_panics(method, params),
        }
    }

    /// Answers a request; a panic (a bug) becomes an internal error and the server goes
    /// on, since the documents are kept apart from what a request computes.
    fn answer_catching_panics(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        catch_unwind(AssertUnwindSafe(|| self.answer(method, params))).unwrap_or_else(|panic| {
            Err(RpcError::new(
                code::INTERNAL_ERROR,
                format!(
                    "internal error while answering `{method}`: {}",
                    panic_text(&*panic)
                ),
            ))
        })
    }

    fn answer(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        match method {
            HoverRequest::METHOD => self.on_document(params, |doc, p: HoverParams| {
                let at = p.text_document_position_params;
                let last_good = self.last_good.get(&at.text_document.uri);
                features::hover(doc, at.position, last_good.map(String::as_str))
            }),
            Completion::METHOD => self.on_document(params, |doc, p: CompletionParams| {
                features::completion(doc, p.text_document_position.position)
            }),
            GotoDefinition::METHOD => self.on_document(params, |doc, p: GotoDefinitionParams| {
                let at = p.text_document_position_params;
                features::definition(doc, &at.text_document.uri, at.position)
            }),
            References::METHOD => self.on_document(params, |doc, p: ReferenceParams| {
                let at = p.text_document_position;
                features::references(doc, &at.text_document.uri, at.position)
            }),
            DocumentSymbolRequest::METHOD => {
                self.on_document(params, |doc, _: DocumentSymbolParams| {
                    DocumentSymbolResponse::Nested(features::symbols(doc))
                })
            }
            _ => Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("unknown method `{method}`"),
            )),
        }
    }

    /// Reads a request's parameters and answers it from the document they name.
    /// Parameters that do not read are invalid parameters. A document that is not open
    /// (never opened, or closed since) is answered with null, as if nothing were there:
    /// editors ask about documents as they close them, and an error would be shown to
    /// the user for nothing.
    fn on_document<P, T>(
        &self,
        params: Value,
        answer: impl FnOnce(&Document, P) -> T,
    ) -> Result<Value, RpcError>
    where
        P: DeserializeOwned + HasDocument,
        T: Serialize,
    {
        let p: P = serde_json::from_value(params)
            .map_err(|e| RpcError::new(code::INVALID_PARAMS, format!("invalid parameters: {e}")))?;
        let Some(text) = self.docs.get(p.document()) else {
            return Ok(Value::Null);
        };
        to_json(answer(&Document::new(text), p))
    }

    /// What to send for a notification: diagnostics when a document changes, a log
    /// message when its parameters do not read (a notification has no answer).
    fn notification(&mut self, method: &str, params: Value) -> Vec<Value> {
        if method == Exit::METHOD {
            self.exit = Some(match self.stage {
                Stage::ShuttingDown => Ok(()),
                _ => Err("`exit` came before `shutdown`".to_string()),
            });
            return Vec::new();
        }
        if self.stage != Stage::Running {
            return Vec::new(); // the protocol drops notifications before `initialize`
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| self.document_change(method, params)));
        match outcome {
            Ok(Ok(out)) => out.into_iter().collect(),
            Ok(Err(why)) => vec![log(MessageType::WARNING, format!("`{method}`: {why}"))],
            Err(panic) => vec![log(
                MessageType::ERROR,
                format!("internal error on `{method}`: {}", panic_text(&*panic)),
            )],
        }
    }

    /// Applies a document's opening, change or closing; its new diagnostics. Other
    /// notifications (`initialized`, `$/cancelRequest`...) need nothing.
    fn document_change(&mut self, method: &str, params: Value) -> Result<Option<Value>, String> {
        let uri = match method {
            DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams = read_params(params)?;
                let doc = p.text_document;
                self.docs.insert(doc.uri.clone(), doc.text);
                doc.uri
            }
            DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams = read_params(params)?;
                // The server asks for whole texts (`TextDocumentSyncKind::FULL`).
                let Some(change) = p.content_changes.into_iter().last() else {
                    return Ok(None);
                };
                self.docs.insert(p.text_document.uri.clone(), change.text);
                p.text_document.uri
            }
            DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams = read_params(params)?;
                self.docs.remove(&p.text_document.uri);
                self.last_good.remove(&p.text_document.uri);
                return Ok(Some(publish(p.text_document.uri, Vec::new())));
            }
            _ => return Ok(None),
        };
        let (diagnostics, checks) = features::diagnostics(&uri, &self.docs[&uri]);
        if checks {
            self.last_good.insert(uri.clone(), self.docs[&uri].clone());
        }
        Ok(Some(publish(uri, diagnostics)))
    }
}

/// Sorts valid JSON into the kinds of message. A message must be an object with
/// `"jsonrpc": "2.0"`; an id is an integer or a string; a method is a string.
fn classify(value: Value) -> Message {
    let Value::Object(mut obj) = value else {
        let why = "a message must be a JSON object (batches are not supported)";
        return invalid(Value::Null, why);
    };
    if !obj.contains_key("method") && (obj.contains_key("result") || obj.contains_key("error")) {
        return Message::Response;
    }
    let id = match obj.get("id") {
        None => None,
        Some(id) if id.is_string() || id.is_i64() || id.is_u64() => Some(id.clone()),
        Some(_) => return invalid(Value::Null, "the id must be an integer or a string"),
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid(
            id.unwrap_or_default(),
            "the message must have \"jsonrpc\": \"2.0\"",
        );
    }
    let params = obj.remove("params").unwrap_or_default();
    match (obj.remove("method"), id) {
        (Some(Value::String(method)), Some(id)) => Message::Request { id, method, params },
        (Some(Value::String(method)), None) => Message::Notification { method, params },
        (Some(_), id) => invalid(id.unwrap_or_default(), "the method must be a string"),
        (None, id) => invalid(
            id.unwrap_or_default(),
            "neither a request, a notification nor a response: no method",
        ),
    }
}

fn invalid(id: Value, why: &str) -> Message {
    Message::Invalid {
        id,
        why: why.to_string(),
    }
}

fn initialize_result() -> InitializeResult {
    let capabilities = ServerCapabilities {
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
    InitializeResult {
        capabilities,
        server_info: Some(ServerInfo {
            name: "varsand".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}

fn read_params<P: DeserializeOwned>(params: Value) -> Result<P, String> {
    serde_json::from_value(params).map_err(|e| format!("invalid parameters: {e}"))
}

fn to_json(answer: impl Serialize) -> Result<Value, RpcError> {
    serde_json::to_value(answer).map_err(|e| RpcError::new(code::INTERNAL_ERROR, e.to_string()))
}

fn error_response(id: Value, e: RpcError) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code, "message": e.message}})
}

fn notification(method: &str, params: impl Serialize) -> Value {
    let params = serde_json::to_value(params).unwrap_or_default();
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn publish(uri: Uri, diagnostics: Vec<Diagnostic>) -> Value {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version: None,
    };
    notification(PublishDiagnostics::METHOD, params)
}

/// A message for the editor's log.
fn log(typ: MessageType, message: String) -> Value {
    notification(LogMessage::METHOD, LogMessageParams { typ, message })
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(std::string::ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
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
