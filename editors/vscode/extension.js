// Starts `varsand lsp` for .var files: diagnostics, hover, completion, definition,
// references and the outline come from the language server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("varsand").get("path", "varsand");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "varsand",
    "varsand",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "var" }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
