// markdown-it-textfrag's worker: it owns the one `textfrag batch --stream` of the build and answers the
// renderer's requests, which waits on a shared flag (markdown-it renders synchronously).
import { spawn } from "node:child_process";
import { parentPort, workerData } from "node:worker_threads";

const { command, shared, port } = workerData;
const flag = new Int32Array(shared);
const waiting = [];
const err = [];
let buffered = "";
let ended = null;

function answer(message) {
  port.postMessage(message);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

const proc = spawn(command, ["batch", "--stream"], { stdio: ["pipe", "pipe", "pipe"] });
proc.stdout.setEncoding("utf-8");
proc.stdout.on("data", (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf("\n")) >= 0 && waiting.length) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    waiting.shift();
    try {
      answer({ answer: JSON.parse(line) });
    } catch {
      answer({ error: `markdown-it-textfrag: "${command} batch --stream" answered what is not JSON: ${line.slice(0, 200)}` });
    }
  }
});
proc.stderr.on("data", (chunk) => err.push(chunk));
const gone = (why) => {
  ended = `markdown-it-textfrag: "${command} batch --stream" ${why}`;
  while (waiting.length) {
    waiting.shift();
    answer({ error: ended });
  }
};
proc.on("error", (error) => gone(`could not start (${error.message}): install textfrag (pip install textfrag)`));
proc.on("close", (status) => gone(`ended (status ${status})\n${Buffer.concat(err).toString()}`));
proc.stdin.on("error", () => {});

parentPort.on("message", (request) => {
  if (ended !== null) {
    answer({ error: ended });
    return;
  }
  waiting.push(request);
  proc.stdin.write(JSON.stringify(request) + "\n");
});
