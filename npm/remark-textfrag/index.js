// remark-textfrag: `txtfrag:` quotes in remark and unified pipelines (Docusaurus 3, Astro Starlight...).
//
// A page's `![caption](txtfrag:REF)` standing alone in its paragraph becomes a block: a `div.txtfrag` with its
// anchor and `data-txtfrag-*` attributes around a code node, which the site's own highlighter renders; within
// text it is an inline `code.txtfrag`; `[text](txtfrag:REF)` is a verified link to the quote. Every verdict
// is textfrag's (`textfrag batch --stream`, one process for the whole build, started at the first page that
// quotes): a stale or broken quote fails the page with the words `textfrag check` says, or, with
// `onStale: "warning"`, a stale one is a warning and its excerpt carries the notice.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const PREFIX = "txtfrag:";
const servers = new Map();

function server(command) {
  if (servers.has(command)) return servers.get(command);
  const proc = spawn(command, ["batch", "--stream"], { stdio: ["pipe", "pipe", "pipe"] });
  const waiting = [];
  const err = [];
  let pieces = [];
  let ended = null;
  // (while no answer is awaited the process holds nothing open: the build ends when its work does, and the
  // server with it, as its input closes)
  const hold = (on) => {
    for (const stream of [proc.stdout, proc.stderr, proc.stdin]) {
      if (on) stream.ref?.();
      else stream.unref?.();
    }
    if (on) proc.ref();
    else proc.unref();
  };
  proc.stdout.setEncoding("utf-8");
  proc.stdout.on("data", (chunk) => {
    // (an answer comes in many chunks: each is looked through once, not the answer so far each time)
    let start = 0;
    let end;
    while ((end = chunk.indexOf("\n", start)) >= 0 && waiting.length) {
      pieces.push(chunk.slice(start, end));
      const line = pieces.join("");
      pieces = [];
      start = end + 1;
      const { resolve, reject } = waiting.shift();
      if (!waiting.length) hold(false);
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`remark-textfrag: "${command} batch --stream" answered what is not JSON: ${line.slice(0, 200)}`));
      }
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  });
  proc.stderr.on("data", (chunk) => err.push(chunk));
  const gone = (why) => {
    ended = `remark-textfrag: "${command} batch --stream" ${why}`;
    servers.delete(command);
    while (waiting.length) waiting.shift().reject(new Error(ended));
  };
  proc.on("error", (error) => gone(`could not start (${error.message}): install textfrag (pip install textfrag)`));
  proc.on("close", (status) => gone(`ended (status ${status})\n${Buffer.concat(err).toString()}`));
  proc.stdin.on("error", () => {});
  hold(false);
  const it = {
    ask(request) {
      if (ended !== null) return Promise.reject(new Error(ended));
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        hold(true);
        proc.stdin.write(JSON.stringify(request) + "\n");
      });
    },
  };
  servers.set(command, it);
  return it;
}

function found(tree) {
  const out = [];
  const stack = [{ node: tree, parent: null, grand: null }];
  while (stack.length) {
    const { node, parent, grand } = stack.pop();
    if ((node.type === "image" || node.type === "link") && typeof node.url === "string" && node.url.startsWith(PREFIX)) {
      out.push({ node, parent, grand });
      continue;
    }
    for (const child of [...(node.children ?? [])].reverse()) stack.push({ node: child, parent: node, grand: parent });
  }
  return out;
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
  const relative = path.relative(process.cwd(), page);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative.split(path.sep).join("/") : page;
}

function lines(piece, first) {
  // the emphasised lines, counted from the block's first line, as `{2,4}` in a code block's meta
  const marked = (piece.emphasized ?? []).map((n) => n - first + 1).filter((n) => n >= 1);
  return marked.length ? `{${marked.join(",")}}` : "";
}

// the caption, a visible permalink to the excerpt and, when the quoted file has a URL, the link to it. (The
// permalink says `data-noBrokenLinkCheck`: Docusaurus checks a page's anchors against the ones its own
// components made, and would call the excerpt's own anchor broken; no other engine reads the attribute.)
function caption(ex) {
  const labels = ex.labels ?? { permalink: "Link to this excerpt", view_source: "view source" };
  const out = [{ type: "text", value: `${ex.caption ?? ""} ` }];
  out.push({
    type: "link",
    url: `#${ex.anchor}`,
    title: labels.permalink,
    data: { hProperties: { className: ["headerlink"], "aria-label": labels.permalink, "data-noBrokenLinkCheck": true } },
    children: [{ type: "text", value: "\u00b6" }],
  });
  if (ex.source_url) {
    out.push({ type: "text", value: " " });
    out.push({ type: "link", url: ex.source_url, data: { hProperties: { className: ["txtfrag-source"] } }, children: [{ type: "text", value: labels.view_source }] });
  }
  return out;
}

// A page whose quote is stale or broken fails, and so does the build: the page's error is the engine's to
// report, and the process ends with status 1 even where the engine goes on without the page (Astro's content
// loader logs a page that fails to render and builds the rest, ending with status 0).
let failing = false;
// whether the build's own includes are guarded, as textfrag's first answer says (null: not yet asked)
let guarded = null;
function failed(file, said) {
  if (!failing) {
    failing = true;
    process.on("exit", () => {
      if (!process.exitCode) process.exitCode = 1;
    });
  }
  file.fail(said);
}

export default function remarkTextfrag(options = {}) {
  const { root, config, onStale } = options;
  const command = options.command ?? process.env.TEXTFRAG_COMMAND ?? "textfrag";
  server(command); // (started now: its start overlaps the build's own, instead of the first page's wait)
  return async (tree, file) => {
    const quotes = found(tree);
    // (the page itself, for its includes where guard mode is on: remark-code-import's, judged against
    // textfrag.lock as check judges them; once textfrag has said guard mode is off, a page without a quote
    // asks nothing)
    const page = file.path && fs.existsSync(file.path) ? shown(file.path) : null;
    if (!quotes.length && !(page && guarded !== false)) return;
    const block = ({ node, parent, grand }) =>
      node.type === "image" && parent?.type === "paragraph" && grand && parent.children.length === 1;
    const settings = onStale ? { on_stale: onStale } : undefined;
    const before = linesBefore(file.path, typeof file.value === "string" ? file.value : String(file.value ?? ""));
    const request = {
      protocol: 1,
      ...(root ? { root } : {}),
      ...(config ? { config } : {}),
      ...(settings ? { settings } : {}),
      ...(page ? { documents: [{ path: page, only: "includes" }] } : {}),
      references: quotes.map((q, id) => ({
        id,
        reference: q.node.url,
        options: q.node.type === "image" && q.node.alt ? { alt: q.node.alt } : {},
        syntax: "md",
        form: q.node.type === "link" ? "link" : block(q) ? "block" : "inline",
        ...(file.path ? { document: shown(file.path) } : {}),
        ...(q.node.position ? { line: q.node.position.start.line + before } : {}),
      })),
    };
    const answer = await server(command).ask(request);
    if (answer.error) failed(file, answer.error);
    if (typeof answer.guard === "boolean") guarded = answer.guard;
    for (const result of answer.results) {
      if (result.kind !== "reference" || result.id === undefined) {
        for (const warning of result.warnings) file.message(warning.said);
        continue; // (an include of the page, or the lock file: its problems fail the page below)
      }
      const q = quotes[result.id];
      for (const warning of result.warnings) file.message(warning.said, q.node);
      if (q.node.type === "link") {
        // (where textfrag says it goes: the quote on this page, else the quoted file's URL; the anchor of a
        // quote on the page is one Docusaurus's anchor check cannot know, as the permalink's)
        if (result.target) q.node.url = result.target;
        if (result.target?.startsWith("#")) q.node.data = { hProperties: { "data-noBrokenLinkCheck": true } };
        continue;
      }
      const ex = result.excerpt;
      if (!ex) continue;
      const attributes = { className: ["txtfrag"], id: ex.anchor, ...ex.data };
      let shown;
      if (block(q)) {
        const piece = ex.pieces?.[0] ?? { first_line: 1, emphasized: [] };
        const children = [];
        if (ex.notice) children.push({ type: "paragraph", data: { hProperties: { className: ["txtfrag-notice"] } }, children: [{ type: "text", value: ex.notice }] });
        children.push({ type: "paragraph", data: { hName: "div", hProperties: { className: ["txtfrag-caption"] } }, children: caption(ex) });
        children.push({ type: "code", lang: ex.language || null, meta: lines(piece, piece.first_line) || null, value: ex.text.replace(/\n$/, "") });
        shown = { type: "txtfragExcerpt", data: { hName: "div", hProperties: attributes }, children };
        q.grand.children[q.grand.children.indexOf(q.parent)] = shown;
      } else {
        shown = { type: "inlineCode", value: ex.inline_text, data: { hName: "code", hProperties: attributes } };
        q.parent.children[q.parent.children.indexOf(q.node)] = shown;
      }
    }
    if (answer.failed) {
      const said = answer.results.flatMap((result) => result.problems.map((problem) => problem.said));
      failed(file, [...said, answer.summary].join("\n"));
    }
  };
}
