// Starts `textfrag lsp` for reStructuredText and Markdown (MyST included) documents. Everything the
// server says (diagnostics, hover, definition, fixes, completion, references, code lenses) is textfrag's
// own; this file only connects VS Code to it.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const [command, ...args] = vscode.workspace.getConfiguration("textfrag").get<string[]>("command") ?? ["textfrag", "lsp"];
  const server: ServerOptions = { command, args };
  const options: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "restructuredtext" },
      { scheme: "file", language: "markdown" },
    ],
    // a quoted file may be any file: the server asks to watch them all, and diagnoses again on a change
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*") },
  };
  client = new LanguageClient("textfrag", "textfrag", server, options);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
