// A remark plugin that renders txtfrag: images through `textfrag batch`: the whole of such an adapter.
// Usage: remark().use(remarkTextfrag, { root: "." }); a stale or broken quote fails the file (vfile.fail).
import { spawnSync } from "node:child_process";

export default function remarkTextfrag({ root = ".", command = "textfrag" } = {}) {
  return (tree, file) => {
    const nodes = [];
    (function walk(node, parent) {
      if (node.type === "image" && node.url.startsWith("txtfrag:")) nodes.push({ node, parent });
      for (const child of node.children ?? []) walk(child, node);
    })(tree, null);
    if (nodes.length === 0) return;
    const request = {
      protocol: 1,
      root,
      references: nodes.map(({ node }, id) => ({
        id,
        reference: node.url,
        options: { ...(node.alt ? { alt: node.alt } : {}), ...(node.title ? { title: node.title } : {}) },
        syntax: "md",
        document: file.path,
        line: node.position?.start.line,
      })),
    };
    const run = spawnSync(command, ["batch"], { input: JSON.stringify(request), encoding: "utf8" });
    if (run.status !== 0 && run.status !== 1) throw new Error(`textfrag batch: ${run.stderr}`);
    const answer = JSON.parse(run.stdout);
    for (const result of answer.results) {
      for (const warning of result.warnings) file.message(warning.said, nodes[result.id].node);
      const { node, parent } = nodes[result.id];
      const ex = result.excerpt;
      if (!ex) continue;
      const data = Object.entries(ex.data).map(([k, v]) => `${k}="${escape(v)}"`).join(" ");
      const caption = ex.caption ? `<figcaption>${escape(ex.caption)}</figcaption>` : "";
      const html = `<figure class="txtfrag" id="${escape(ex.anchor)}" ${data}>${caption}` +
        `<pre><code class="language-${escape(ex.language)}">${escape(ex.text)}</code></pre></figure>`;
      parent.children[parent.children.indexOf(node)] = { type: "html", value: html };
    }
    const said = answer.results.flatMap((result) => result.problems.map((problem) => problem.said));
    if (answer.failed) file.fail([...said, answer.summary].join("\n"));
  };
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
