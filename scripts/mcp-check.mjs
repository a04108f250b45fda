// Checks that a command speaks MCP over stdio: it starts the command, sends
// initialize, the initialized notification, tools/list and a think call
// (which writes the database), checks the answers, closes stdin and expects
// the server to exit 0. Only Node's own modules: scripts/dist.sh runs it on
// what it built, in an empty folder.
//
//   node scripts/mcp-check.mjs [--version V] -- COMMAND [ARG...]
//
// --version V: serverInfo.version must be V. Prints one line on success;
// on failure, what went wrong and the server's stderr, and exits 1.

import { spawn } from "node:child_process";

const args = process.argv.slice(2);
let wantVersion = "";
while (args.length && args[0] !== "--") {
  const a = args.shift();
  if (a === "--version" && args.length) wantVersion = args.shift();
  else usage(`unknown argument ${a}`);
}
args.shift();
if (args.length === 0) usage("no command given");

function usage(msg) {
  console.error(`mcp-check: ${msg}\nusage: node scripts/mcp-check.mjs [--version V] -- COMMAND [ARG...]`);
  process.exit(2);
}

const timeoutMs = 120_000;
const child = spawn(args[0], args.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.on("data", (d) => (stderr += d));

function fail(msg) {
  console.error(`mcp-check: ${args.join(" ")}: ${msg}`);
  if (stderr) console.error(`server stderr:\n${stderr.slice(-4000)}`);
  child.kill("SIGKILL");
  process.exit(1);
}
const timer = setTimeout(() => fail(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
child.on("error", (err) => fail(`cannot start: ${err.message}`));
// A server that dies early closes its stdin: the exit says why, not EPIPE.
child.stdin.on("error", () => {});

// Responses by id, from newline-delimited JSON-RPC on stdout.
const waiting = new Map();
let buf = "";
child.stdout.on("data", (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i).trim();
    buf = buf.slice(i + 1);
    if (!line) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      fail(`stdout carries a line that is not JSON: ${line.slice(0, 200)}`);
    }
    if (msg.id !== undefined && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  }
});
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

let nextId = 1;
function request(method, params) {
  const id = nextId++;
  const answer = new Promise((resolve) => waiting.set(id, resolve));
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  exited.then(({ code, signal }) => waiting.has(id) && fail(`exited (${signal ?? code}) before answering ${method}`));
  return answer;
}

const init = await request("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "thinkgraph-dist-check", version: "1" },
});
if (init.error) fail(`initialize failed: ${JSON.stringify(init.error)}`);
const info = init.result?.serverInfo ?? {};
if (info.name !== "thinkgraph") fail(`serverInfo.name is ${JSON.stringify(info.name)}, want "thinkgraph"`);
if (wantVersion && info.version !== wantVersion) fail(`serverInfo.version is ${JSON.stringify(info.version)}, want ${JSON.stringify(wantVersion)}`);
if (!init.result.protocolVersion) fail("initialize names no protocolVersion");
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
const list = await request("tools/list", {});
const tools = list.result?.tools ?? [];
if (list.error || !tools.some((t) => t.name === "think")) fail(`tools/list lists no think tool: ${JSON.stringify(list.error ?? list.result).slice(0, 500)}`);
const think = await request("tools/call", { name: "think", arguments: { thought: "The server can write its database." } });
if (think.error || think.result?.isError || think.result?.structuredContent?.status !== "success") {
  fail(`think: ${JSON.stringify(think.error ?? think.result).slice(0, 500)}`);
}

child.stdin.end();
const { code, signal } = await exited;
clearTimeout(timer);
if (code !== 0) fail(`exited with ${signal ?? code} after stdin closed, want 0`);
console.log(`${args.join(" ")}: ${info.name} ${info.version}, protocol ${init.result.protocolVersion}, ${tools.length} tools, think wrote step ${think.result.structuredContent.step}, exit 0`);
