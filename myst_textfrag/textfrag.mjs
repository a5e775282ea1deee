// textfrag for mystmd and Jupyter Book 2, as a JavaScript plugin: `textfrag-myst --javascript > textfrag.mjs`,
// then `plugins: [textfrag.mjs]` in myst.yml, instead of the executable plugin `textfrag-myst`.
//
// What the executable plugin declares (its directive, its role, its transform) is asked of `textfrag-myst`
// once, when mystmd loads this file. A use of the directive or the role then costs no process: it becomes,
// here, the placeholder `textfrag-myst` itself would answer (what mystmd would have sent it, kept as JSON
// text), and the page's transform, which runs `textfrag-myst` once per page as mystmd runs an executable
// plugin's, replaces each placeholder with the verdict. The page's tree is the one the executable plugin
// gives. `TEXTFRAG_MYST_PLUGIN` names the command when `textfrag-myst` is not on the PATH.

import { spawn, spawnSync } from "node:child_process";

const COMMAND = process.env.TEXTFRAG_MYST_PLUGIN || "textfrag-myst";
const PENDING = "txtfrag-pending";
const KIND = "txtfrag-use";

function failed(what, said) {
  return new Error(`textfrag.mjs: "${COMMAND}" failed ${what}\n\n${said}`);
}

// (set for what this plugin starts: a command that loads this plugin again, such as mystmd itself named by
// mistake, is refused instead of starting itself without end)
const STARTED = "TEXTFRAG_MYST_PLUGIN_STARTED";
if (process.env[STARTED]) {
  throw new Error(`"${process.env[STARTED]}" loaded textfrag.mjs again: TEXTFRAG_MYST_PLUGIN must name textfrag-myst`);
}
const ENV = { ...process.env, [STARTED]: COMMAND };

const asked = spawnSync(COMMAND, [], { encoding: "utf-8", env: ENV, timeout: 60000, stdio: ["ignore", "pipe", "pipe"] });
if (asked.error || asked.status) {
  throw failed("when asked for its plugin specification", asked.error ? String(asked.error) : asked.stderr);
}
let spec;
try {
  spec = JSON.parse(asked.stdout);
} catch (error) {
  spec = null;
}
if (!spec || spec.name !== "textfrag" || !Array.isArray(spec.directives)) {
  throw failed("when asked for its plugin specification", "its answer is not textfrag's specification: it must be textfrag-myst");
}

// the one node a use is until its page's transform: a div or an inlineCode (block or inline, as what
// replaces it) holding what mystmd would have sent the executable plugin for it
function placeholder(kind, data) {
  const shape = kind === "directive" ? { type: "div", children: [] } : { type: "inlineCode", value: "" };
  return [{ ...shape, data: { [KIND]: kind, [PENDING]: JSON.stringify(data) } }];
}

// the page's tree through `textfrag-myst --transform NAME`, as mystmd runs an executable plugin's transform
function transformed(name, tree) {
  return new Promise((resolve, reject) => {
    const proc = spawn(COMMAND, ["--transform", name], { env: ENV });
    const out = [];
    const err = [];
    proc.stdout.on("data", (chunk) => out.push(chunk));
    proc.stderr.on("data", (chunk) => err.push(chunk));
    proc.on("error", (error) => reject(failed(`to start for the transform '${name}'`, String(error))));
    proc.on("close", (status) => {
      if (status) {
        reject(failed(`during the transform '${name}'`, Buffer.concat(err).toString()));
      } else {
        resolve(JSON.parse(Buffer.concat(out).toString()));
      }
    });
    proc.stdin.on("error", () => {}); // (a command that ended early: its status says why)
    proc.stdin.end(JSON.stringify(tree));
  });
}

const plugin = {
  ...spec,
  directives: (spec.directives ?? []).map((d) => ({ ...d, run: (data) => placeholder("directive", data) })),
  roles: (spec.roles ?? []).map((r) => ({ ...r, run: (data) => placeholder("role", data) })),
  transforms: (spec.transforms ?? []).map((t) => ({
    ...t,
    plugin: () => async (tree) => {
      Object.assign(tree, await transformed(t.name, tree));
    },
  })),
};

export default plugin;
