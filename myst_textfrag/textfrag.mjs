// textfrag for mystmd and Jupyter Book 2, as a JavaScript plugin: `textfrag-myst --javascript > textfrag.mjs`,
// then `plugins: [textfrag.mjs]` in myst.yml, instead of the executable plugin `textfrag-myst`.
//
// What the executable plugin declares (its directive, its role, its transform) is asked of `textfrag-myst
// --serve`, started once when mystmd loads this file. A use of the directive or the role then costs no process: it becomes,
// here, the placeholder `textfrag-myst` itself would answer (what mystmd would have sent it, kept as JSON
// text), and the page's transform replaces each placeholder with the verdict: one `textfrag-myst --serve`,
// started once for the build, transforms every page as `textfrag-myst --transform` would (mystmd starts
// that once per page for the executable plugin). The page's tree is the one the executable plugin gives. `TEXTFRAG_MYST_PLUGIN` names the command when `textfrag-myst` is not on the PATH.

import { spawn } from "node:child_process";

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

// the one node a use is until its page's transform: a div or an inlineCode (block or inline, as what
// replaces it) holding what mystmd would have sent the executable plugin for it
function placeholder(kind, data) {
  const shape = kind === "directive" ? { type: "div", children: [] } : { type: "inlineCode", value: "" };
  return [{ ...shape, data: { [KIND]: kind, [PENDING]: JSON.stringify(data) } }];
}

// one `textfrag-myst --serve` for the build, started when mystmd loads this file: it answers the
// specification first, then every page's transform, a line of JSON a request and a line an answer, in
// order (one Python start per build). While no answer is awaited it holds nothing open: mystmd ends when
// its work does, and the server with it, as its input closes.
function serve() {
  const proc = spawn(COMMAND, ["--serve"], { env: ENV });
  const waiting = [];
  const err = [];
  let buffered = "";
  let ended = null;
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
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf("\n")) >= 0 && waiting.length) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const { resolve, reject } = waiting.shift();
      if (!waiting.length) hold(false);
      try {
        resolve(JSON.parse(line));
      } catch (error) {
        reject(new Error(`its answer is not JSON: ${line.slice(0, 200)}`));
      }
    }
  });
  proc.stderr.on("data", (chunk) => err.push(chunk));
  const gone = (why) => {
    ended = why;
    while (waiting.length) waiting.shift().reject(new Error(why));
  };
  proc.on("error", (error) => gone(String(error)));
  proc.on("close", (status) => gone(`it ended (status ${status})\n\n${Buffer.concat(err).toString()}`));
  proc.stdin.on("error", () => {}); // (a command that ended early: its status says why)
  return {
    ask(request) {
      if (ended !== null) return Promise.reject(new Error(ended));
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        hold(true);
        proc.stdin.write(JSON.stringify(request) + "\n");
      });
    },
    stop() {
      proc.kill();
    },
  };
}

const server = serve();
let spec = null;
try {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in 60 s")), 60000);
  });
  spec = (await Promise.race([server.ask({ specification: true }), late])).specification;
  clearTimeout(timer);
} catch (error) {
  server.stop();
  throw failed("when asked for its plugin specification", `its answer is not textfrag's specification: it must be textfrag-myst\n\n${error.message}`);
}
if (!spec || spec.name !== "textfrag" || !Array.isArray(spec.directives)) {
  server.stop();
  throw failed("when asked for its plugin specification", "its answer is not textfrag's specification: it must be textfrag-myst");
}

async function transformed(name, tree) {
  let answer;
  try {
    answer = await server.ask({ transform: name, tree });
  } catch (error) {
    throw failed(`during the transform '${name}'`, error.message);
  }
  if (!answer.tree) throw failed(`during the transform '${name}'`, answer.said ?? "");
  return answer.tree;
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
