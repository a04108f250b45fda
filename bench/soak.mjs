// Soak test of one thinkgraph tool through the TypeScript SDK client: many
// sequential calls on one connection, reporting the slowest call. A call that
// takes longer than --timeout is treated as a stall: the script prints the
// server's state from /proc, sends it SIGQUIT (Go then prints every
// goroutine's stack to stderr), saves that stderr and exits 1.
//
//   node bench/soak.mjs <thinkgraph-binary> [think|sequentialthinking] [calls] [timeout-ms]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const [bin, tool = "think", calls = "100000", timeout = "20000"] = process.argv.slice(2);
if (!bin) {
  console.error("usage: node bench/soak.mjs <thinkgraph-binary> [think|sequentialthinking] [calls] [timeout-ms]");
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "thinkgraph-soak-"));
const transport = new StdioClientTransport({
  command: bin,
  args: ["serve", "--db", path.join(dir, "soak.db")],
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  stderr: "pipe",
});
let stderr = "";
transport.stderr.on("data", (d) => {
  stderr = (stderr + d).slice(-500000);
});
const client = new Client({ name: "thinkgraph-soak", version: "1.0.0" });
await client.connect(transport);
const pid = transport.pid;
const read = (f) => {
  try {
    return fs.readFileSync(f, "utf8");
  } catch {
    return "";
  }
};

let worst = 0;
let worstAt = 0;
const t00 = performance.now();
for (let i = 1; i <= Number(calls); i++) {
  const args =
    tool === "think"
      ? { thought: `Step ${i}. A thought of about one hundred and fifty characters, so that the database grows as it would in a long session.` }
      : { thought: `Step ${i}. A thought of about one hundred and fifty characters.`, thoughtNumber: i, totalThoughts: i, nextThoughtNeeded: true };
  const t0 = performance.now();
  try {
    const res = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: Number(timeout) });
    if (res.isError) throw new Error(`tool error: ${JSON.stringify(res.content)}`);
  } catch (err) {
    console.log(`call ${i} failed after ${(performance.now() - t0).toFixed(0)} ms: ${err?.message ?? err}`);
    const status = read(`/proc/${pid}/status`).split("\n").filter((l) => /^(State|Threads|VmRSS)/.test(l)).join("; ");
    console.log(`server pid ${pid}: ${status || "gone"}`);
    let threads = [];
    try {
      threads = fs.readdirSync(`/proc/${pid}/task`).map((tid) => `${tid}:${read(`/proc/${pid}/task/${tid}/stat`).split(" ")[2]}:${read(`/proc/${pid}/task/${tid}/wchan`)}`);
    } catch {
      /* gone */
    }
    console.log(`threads (tid:state:wchan): ${threads.join(" ")}`);
    try {
      process.kill(pid, "SIGQUIT");
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 3000));
    const dump = path.join(os.tmpdir(), `thinkgraph-soak-stderr-${process.pid}.txt`);
    fs.writeFileSync(dump, stderr);
    console.log(`server stderr (goroutine dump after SIGQUIT): ${dump}; database left in ${dir}`);
    process.exit(1);
  }
  const d = performance.now() - t0;
  if (d > worst) {
    worst = d;
    worstAt = i;
  }
  if (i % 10000 === 0) console.log(`${tool}: ${i} calls in ${((performance.now() - t00) / 1000).toFixed(0)} s, slowest ${worst.toFixed(1)} ms (call ${worstAt}), server VmRSS ${(/VmRSS:\s+(\d+)/.exec(read(`/proc/${pid}/status`)) ?? [])[1]} kB`);
}
await client.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`${tool}: ${calls} calls, slowest ${worst.toFixed(1)} ms (call ${worstAt})`);
