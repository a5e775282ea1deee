// markdown-it-textfrag: `txtfrag:` quotes in markdown-it (VitePress).
//
// A page's `![caption](txtfrag:REF)` standing alone in its paragraph becomes a block: a `div.txtfrag` with its
// anchor and `data-txtfrag-*` attributes around a fenced code block, which the site's own highlighter
// renders (Shiki in VitePress, its `{2,3}` emphasis included); within text it is an inline `code.txtfrag`;
// `[text](txtfrag:REF)` is a verified link to the quote. Every verdict is textfrag's: one
// `textfrag batch --stream` for the whole build, in a worker thread the renderer waits on (markdown-it
// renders synchronously). A stale or broken quote fails the page with the words `textfrag check` says, or,
// with `onStale: "warning"`, a stale one is a warning and its excerpt carries the notice.

import fs from "node:fs";
import path from "node:path";
import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";

const PREFIX = "txtfrag:";
const bridges = new Map();
// whether the build's own includes are guarded, as textfrag's first answer says (null: not yet asked)
let guarded = null;

function bridge(command) {
  if (bridges.has(command)) return bridges.get(command);
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL("./worker.js", import.meta.url), {
    workerData: { command, shared, port: port2 },
    transferList: [port2],
    execArgv: [], // (not the build's: `node -e SCRIPT` would run SCRIPT in the worker)
  });
  worker.unref(); // (the build ends when its work does; the worker, and textfrag with it, then)
  const it = {
    ask(request) {
      Atomics.store(flag, 0, 0);
      worker.postMessage(request);
      if (Atomics.wait(flag, 0, 0, 300000) === "timed-out") {
        throw new Error(`markdown-it-textfrag: "${command} batch --stream" gave no answer in 300 s`);
      }
      const { message } = receiveMessageOnPort(port1);
      if (message.error) throw new Error(message.error);
      return message.answer;
    },
  };
  bridges.set(command, it);
  return it;
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function attributes(ex) {
  const pairs = { class: "txtfrag", id: ex.anchor, ...ex.data };
  return Object.entries(pairs).map(([k, v]) => `${k}="${escape(v)}"`).join(" ");
}

// the caption, a visible permalink to the excerpt and, when the quoted file has a URL, the link to it
function caption(ex) {
  const labels = ex.labels ?? { permalink: "Link to this excerpt", view_source: "view source" };
  const said = escape(labels.permalink);
  const source = ex.source_url ? ` <a class="txtfrag-source" href="${escape(ex.source_url)}">${escape(labels.view_source)}</a>` : "";
  return `${escape(ex.caption ?? "")} <a class="headerlink" href="#${escape(ex.anchor)}" title="${said}" aria-label="${said}">&para;</a>${source}`;
}

// how many lines of the page come before the text the engine parses: Astro, VitePress and Docusaurus hand the
// Markdown parser the page without its front matter, and a problem is said at the page's own line
function linesBefore(page, parsed) {
  if (!page || !parsed) return 0;
  let text;
  try {
    text = fs.readFileSync(page, "utf8");
  } catch {
    return 0;
  }
  if (text === parsed) return 0;
  const at = text.lastIndexOf(parsed);
  return at > 0 ? text.slice(0, at).split("\n").length - 1 : 0;
}

// a page's path as check says it: from the folder the build runs in, when it is under it
function shown(page) {
  if (!page) return undefined;
  const relative = path.relative(process.cwd(), page);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative.split(path.sep).join("/") : page;
}

export default function markdownItTextfrag(md, options = {}) {
  const { root, config, onStale } = options;
  const command = options.command ?? process.env.TEXTFRAG_COMMAND ?? "textfrag";
  md.core.ruler.push("textfrag", (state) => {
    const quotes = [];
    state.tokens.forEach((token, at) => {
      if (token.type !== "inline" || !token.children) return;
      token.children.forEach((child) => {
        const url = child.type === "image" ? child.attrGet("src") : child.type === "link_open" ? child.attrGet("href") : null;
        if (typeof url !== "string" || !url.startsWith(PREFIX)) return;
        const alone =
          child.type === "image" &&
          token.children.length === 1 &&
          state.tokens[at - 1]?.type === "paragraph_open" &&
          state.tokens[at + 1]?.type === "paragraph_close";
        quotes.push({ token, child, at, url, block: alone, line: token.map ? token.map[0] + 1 : undefined });
      });
    });
    // (the page itself, for its includes where guard mode is on: VitePress's <<< snippets, judged against
    // textfrag.lock as check judges them; once textfrag has said guard mode is off, a page without a quote
    // asks nothing)
    // (VitePress names the page's own file realPath, and path where its rewrites put it)
    const file = state.env?.realPath ?? state.env?.path;
    const page = file && fs.existsSync(file) ? shown(file) : null;
    if (!quotes.length && !(page && guarded !== false)) return;
    const document = shown(file) ?? state.env?.relativePath;
    const before = linesBefore(file, state.src);
    const request = {
      protocol: 1,
      ...(root ? { root } : {}),
      ...(config ? { config } : {}),
      ...(onStale ? { settings: { on_stale: onStale } } : {}),
      ...(page ? { documents: [{ path: page, only: "includes" }] } : {}),
      references: quotes.map((q, id) => ({
        id,
        reference: q.url,
        options: q.child.type === "image" && q.child.content ? { alt: q.child.content } : {},
        syntax: "md",
        form: q.child.type === "link_open" ? "link" : q.block ? "block" : "inline",
        ...(document ? { document } : {}),
        ...(q.line ? { line: q.line + before } : {}),
      })),
    };
    const answer = bridge(command).ask(request);
    if (answer.error) throw new Error(answer.error);
    if (typeof answer.guard === "boolean") guarded = answer.guard;
    const blocks = [];
    for (const result of answer.results) {
      for (const warning of result.warnings) console.warn(`markdown-it-textfrag: ${warning.said}`);
      if (result.kind !== "reference" || result.id === undefined) continue; // (an include of the page, the lock)
      const q = quotes[result.id];
      if (q.child.type === "link_open") {
        // (where textfrag says it goes: the quote on this page, else the quoted file's URL)
        if (result.target) q.child.attrSet("href", result.target);
        continue;
      }
      const ex = result.excerpt;
      if (!ex) continue;
      if (!q.block) {
        const html = new state.Token("html_inline", "", 0);
        html.content = `<code ${attributes(ex)} v-pre>${escape(ex.inline_text)}</code>`;
        q.token.children[q.token.children.indexOf(q.child)] = html;
        continue;
      }
      const piece = ex.pieces?.[0] ?? { first_line: 1, emphasized: [] };
      const marked = (piece.emphasized ?? []).map((n) => n - piece.first_line + 1).filter((n) => n >= 1);
      const open = new state.Token("html_block", "", 0);
      open.content = `<div ${attributes(ex)}>\n`
        + (ex.notice ? `<p class="txtfrag-notice">${escape(ex.notice)}</p>\n` : "")
        + `<div class="txtfrag-caption">${caption(ex)}</div>\n`;
      const fence = new state.Token("fence", "code", 0);
      fence.info = `${ex.language || "text"}${marked.length ? `{${marked.join(",")}}` : ""}`;
      fence.content = ex.text.endsWith("\n") ? ex.text : `${ex.text}\n`;
      fence.markup = "```";
      fence.block = true;
      fence.map = q.token.map;
      const close = new state.Token("html_block", "", 0);
      close.content = "</div>\n";
      blocks.push({ at: q.at, tokens: [open, fence, close] });
    }
    for (const { at, tokens } of blocks.sort((a, b) => b.at - a.at)) state.tokens.splice(at - 1, 3, ...tokens);
    if (answer.failed) {
      const said = answer.results.flatMap((result) => result.problems.map((problem) => problem.said));
      throw new Error([...said, answer.summary].join("\n"));
    }
  });
}
