// thinkgraph vs @modelcontextprotocol/server-sequential-thinking, measured in
// one run through the same official TypeScript SDK client over stdio.
// Run it through bench/run.sh, which builds thinkgraph and installs the npm
// packages:
//
//   node bench/bench.mjs --tg <thinkgraph-binary> [options]
//
// Options:
//   --runs N            cold starts per server (default 20)
//   --calls N           tool calls for the memory test (default 10000; 100000 for the long run)
//   --latency-calls N   sequentialthinking calls per server for latency (default 2000)
//   --warmup N          calls per server before latency is recorded (default 20)
//   --only LIST         comma-separated parts: start,rss,latency (default all)
//   --out DIR           where results go (default bench/results)
//   --commit TEXT       what the binary was built from (default: this checkout's HEAD)
//   --floor BIN         the go-sdk floor (bench/floor, built by run.sh): measured beside the others
//
// Servers:
//   thinkgraph    <binary> serve --db <fresh file in a temp dir>  (LOG_LEVEL=warn)
//   official      node node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js
//                 with DISABLE_THOUGHT_LOGGING=true (quiet) and, as a second
//                 server, with its default thought logging to stderr (logging).
//   go-sdk floor  <floor-binary>: the official server ported to the MCP Go SDK
//                 (bench/floor), in memory: what any server on that SDK pays.
// The process measured (pid, /proc/<pid>/status) is the server itself: the Go
// binary, or the node process running the official server (no npx wrapper).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);

// ---------------------------------------------------------------- options
const opts = { runs: 20, calls: 10000, "latency-calls": 2000, warmup: 20, only: "start,rss,latency", out: path.join(here, "results"), tg: "", commit: "", floor: "" };
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !(m[1] in opts)) {
      console.error(`unknown argument ${argv[i]}; options: ${Object.keys(opts).map((k) => "--" + k).join(" ")}`);
      process.exit(2);
    }
    const v = m[2] ?? argv[++i];
    opts[m[1]] = typeof opts[m[1]] === "number" ? Number(v) : v;
    if (typeof opts[m[1]] === "number" && !(opts[m[1]] >= 0)) {
      console.error(`--${m[1]} wants a number, got ${v}`);
      process.exit(2);
    }
  }
  if (!opts.tg) {
    console.error("--tg <thinkgraph-binary> is required (bench/run.sh builds it)");
    process.exit(2);
  }
}
const parts = new Set(opts.only.split(","));
const officialEntry = path.join(here, "node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js");
if (!fs.existsSync(officialEntry)) {
  console.error(`missing ${officialEntry}: run npm ci --prefix bench`);
  process.exit(2);
}
const officialVersion = JSON.parse(fs.readFileSync(path.join(here, "node_modules/@modelcontextprotocol/server-sequential-thinking/package.json"), "utf8")).version;
const sdkVersion = JSON.parse(fs.readFileSync(path.join(here, "node_modules/@modelcontextprotocol/sdk/package.json"), "utf8")).version;

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "thinkgraph-bench-"));
process.on("exit", () => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let dbCounter = 0;

// ---------------------------------------------------------------- servers
const SERVERS = {
  thinkgraph: () => ({
    command: opts.tg,
    args: ["serve", "--db", path.join(tmpRoot, `tg-${++dbCounter}`, "thinkgraph.db")],
    env: { LOG_LEVEL: "warn" },
  }),
  "official (quiet)": () => ({ command: process.execPath, args: [officialEntry], env: { DISABLE_THOUGHT_LOGGING: "true" } }),
  "official (logging)": () => ({ command: process.execPath, args: [officialEntry], env: {} }),
};
const OURS = "thinkgraph";
const THEIRS = ["official (quiet)", "official (logging)"];
const FLOOR = "go-sdk floor";
if (opts.floor) SERVERS[FLOOR] = () => ({ command: opts.floor, args: [], env: {} });
// FLOORS: the floor when it was given, for the parts that measure it.
const FLOORS = opts.floor ? [FLOOR] : [];

// connect spawns a server and initializes; it returns the client, the pid and
// the milliseconds from spawn to the initialize answer.
async function connect(name) {
  const spec = SERVERS[name]();
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: { ...process.env, ...spec.env },
    stderr: "pipe",
  });
  const conn = { name, stderrBytes: 0, stderrTail: "" };
  // Drain stderr as a client does (it goes to a log file there); count it.
  transport.stderr.on("data", (d) => {
    conn.stderrBytes += d.length;
    conn.stderrTail = (conn.stderrTail + d.toString()).slice(-2000);
  });
  const client = new Client({ name: "thinkgraph-bench", version: "1.0.0" });
  const t0 = performance.now();
  await client.connect(transport); // spawn, initialize request, its answer, initialized notification
  conn.startMs = performance.now() - t0;
  conn.t0 = t0;
  conn.client = client;
  conn.pid = transport.pid;
  conn.close = async () => {
    try {
      await client.close();
    } catch {
      /* already gone */
    }
  };
  return conn;
}

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const get = (k) => Number((new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(status) ?? [])[1]);
  return { rss: get("VmRSS"), hwm: get("VmHWM"), anon: get("RssAnon"), file: get("RssFile") };
}

const THOUGHT = "Consider the constraints again: the cache must stay consistent across restarts, so every write has to be durable before it is acknowledged. ";
function thoughtText(i) {
  return `Step ${i}. ${THOUGHT}`;
}
function seqArgs(i) {
  return { thought: thoughtText(i), thoughtNumber: i, totalThoughts: i, nextThoughtNeeded: true };
}

async function callOK(conn, name, args) {
  let res;
  try {
    res = await conn.client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
  } catch (err) {
    let state = "";
    try {
      state = (/^State:.*$/m.exec(fs.readFileSync(`/proc/${conn.pid}/status`, "utf8")) ?? [""])[0];
    } catch {
      state = "process gone";
    }
    throw new Error(`${conn.name} (pid ${conn.pid}, ${state}): ${name} ${JSON.stringify(args).slice(0, 200)} failed: ${err?.message ?? err}\nserver stderr (tail): ${conn.stderrTail.slice(-1000)}`);
  }
  if (res.isError) {
    throw new Error(`${conn.name}: ${name} failed: ${JSON.stringify(res.content)}\nstderr: ${conn.stderrTail}`);
  }
  return res;
}

// ---------------------------------------------------------------- statistics
function quantile(sorted, q) {
  // nearest rank
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx];
}
function summarize(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, min: s[0], median: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s[s.length - 1] };
}
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "n/a");
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : "n/a");
const mib = (kib) => (Number.isFinite(kib) ? (kib / 1024).toFixed(1) : "n/a");
function log(...a) {
  console.error(...a);
}

// ---------------------------------------------------------------- machine
function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}
const cpuinfo = fs.readFileSync("/proc/cpuinfo", "utf8");
const machine = {
  date: new Date().toISOString(),
  nproc: os.cpus().length,
  cpu: (/^model name\s*:\s*(.*)$/m.exec(cpuinfo) ?? [])[1] ?? "unknown",
  memory_gib: +(os.totalmem() / 2 ** 30).toFixed(1),
  kernel: `${os.type()} ${os.release()}`,
  node: process.version,
  go: sh("go", ["version"]),
  thinkgraph_version: sh(opts.tg, ["version"]),
  commit: opts.commit || sh("git", ["-C", repo, "rev-parse", "--short", "HEAD"]) + (sh("git", ["-C", repo, "status", "--porcelain", "--untracked-files=no"]) ? " (+ uncommitted changes in the checkout)" : ""),
  sdk: `@modelcontextprotocol/sdk ${sdkVersion}`,
  official: `@modelcontextprotocol/server-sequential-thinking ${officialVersion}`,
  loadavg_start: os.loadavg().map((x) => +x.toFixed(2)),
};

const results = { machine, options: { ...opts, tg: path.basename(opts.tg) }, start: null, rss: null, latency: null };

// ---------------------------------------------------------------- cold start
async function benchStart() {
  // Official thought logging makes no difference before the first thought, so
  // cold start compares thinkgraph with the official server in its default
  // configuration. Order alternates every run; one unrecorded warm-up each
  // first, so neither pays for filling the page cache alone.
  const names = [OURS, "official (logging)", ...FLOORS];
  for (const n of names) await (await connect(n)).close();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  // first: spawn → the first sequentialthinking call answered, sent as soon
  // as the handshake is done (thinkgraph opens its database during the
  // handshake, so a call this early may wait for it).
  const first = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < opts.runs; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      const c = await connect(n);
      times[n].push(c.startMs);
      await callOK(c, "sequentialthinking", seqArgs(1));
      first[n].push(performance.now() - c.t0);
      await c.close();
    }
  }
  const ours = summarize(times[OURS]);
  const theirs = summarize(times["official (logging)"]);
  results.start = { runs: opts.runs, thinkgraph: ours, official: theirs, samples: times };
  results.start.first_call = Object.fromEntries(names.map((n) => [n, summarize(first[n])]));
  if (opts.floor) results.start.floor = summarize(times[FLOOR]);
  log(`cold start: thinkgraph median ${f1(ours.median)} ms p90 ${f1(ours.p90)} ms; official median ${f1(theirs.median)} ms p90 ${f1(theirs.p90)} ms`);
}

// ---------------------------------------------------------------- memory
function checkpoints(total) {
  const cps = [1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000].filter((c) => c < total);
  cps.push(total);
  return cps;
}
async function benchRSS(ourTools) {
  // All servers live at once; calls alternate one by one between them, so
  // they see the same machine at the same time.
  const plan = [{ name: OURS, tool: "think", args: (i) => ({ thought: thoughtText(i) }) }];
  if (ourTools.has("sequentialthinking")) {
    plan.push({ name: OURS, tool: "sequentialthinking", args: seqArgs, label: "thinkgraph sequentialthinking" });
  }
  for (const n of [...THEIRS, ...FLOORS]) plan.push({ name: n, tool: "sequentialthinking", args: seqArgs });
  for (const p of plan) {
    p.label ??= `${p.name} ${p.tool}`;
    p.conn = await connect(p.name);
    p.samples = [{ calls: 0, ...rssKiB(p.conn.pid) }];
  }
  const cps = checkpoints(opts.calls);
  const t0 = performance.now();
  let next = 0;
  for (let i = 1; i <= opts.calls; i++) {
    for (const p of plan) await callOK(p.conn, p.tool, p.args(i));
    if (i === cps[next]) {
      next++;
      for (const p of plan) p.samples.push({ calls: i, ...rssKiB(p.conn.pid) });
      log(`rss after ${i} calls: ${plan.map((p) => `${p.label} ${mib(p.samples.at(-1).rss)} MiB`).join(", ")} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }
  results.rss = {
    calls: opts.calls,
    servers: plan.map((p) => ({ label: p.label, server: p.name, tool: p.tool, stderr_bytes: p.conn.stderrBytes, samples: p.samples })),
  };
  for (const p of plan) await p.conn.close();
}

// ---------------------------------------------------------------- latency
async function benchLatency(ourTools) {
  if (!ourTools.has("sequentialthinking")) {
    results.latency = { available: false, reason: "thinkgraph does not list sequentialthinking (yet)" };
    log("latency: thinkgraph does not list sequentialthinking: not available");
    return;
  }
  const names = [OURS, ...THEIRS, ...FLOORS];
  const conns = [];
  for (const n of names) conns.push(await connect(n));
  // Warm-up (not recorded): JIT for node, page cache and first writes for us.
  for (let i = 1; i <= opts.warmup; i++) for (const c of conns) await callOK(c, "sequentialthinking", seqArgs(i));
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 1; i <= opts["latency-calls"]; i++) {
    // Alternate call by call, rotating who goes first.
    for (let k = 0; k < conns.length; k++) {
      const c = conns[(i + k) % conns.length];
      const args = seqArgs(opts.warmup + i);
      const t = performance.now();
      await callOK(c, "sequentialthinking", args);
      times[c.name].push(performance.now() - t);
    }
  }
  for (const c of conns) await c.close();
  results.latency = { available: true, calls: opts["latency-calls"], warmup: opts.warmup };
  for (const n of names) {
    results.latency[n] = summarize(times[n]);
    log(`latency ${n}: median ${f3(results.latency[n].median)} ms p99 ${f3(results.latency[n].p99)} ms`);
  }
}

// ---------------------------------------------------------------- report
function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN;
}
function verdict(r, target) {
  return Number.isFinite(r) ? (r <= target ? "met" : "NOT met") : "n/a";
}
// FLAT_PCT: how much VmRSS may grow over the second half of the run (from the
// sample at half the calls, or the nearest before it, to the last) for the
// memory to count as flat. The first calls fill fixed-size caches (SQLite's
// page cache, Go's heap target; V8's heap), so growth from 0 or 1k calls is
// shown but not judged.
// PEAK_PCT: how far the peak (VmHWM) may stand above the final VmRSS, so that
// a run that grew and then shrank between samples does not count as flat.
const FLAT_PCT = 5;
const PEAK_PCT = 10;
function flatness(samples) {
  const last = samples.at(-1);
  const base1k = samples.find((s) => s.calls >= 1000) ?? samples[1];
  const half = [...samples].reverse().find((s) => s.calls <= last.calls / 2 && s.calls > 0) ?? base1k;
  return {
    from: base1k.calls,
    to: last.calls,
    growthKiB: last.rss - base1k.rss,
    growthPct: (100 * (last.rss - base1k.rss)) / base1k.rss,
    halfFrom: half.calls,
    halfGrowthKiB: last.rss - half.rss,
    halfGrowthPct: (100 * (last.rss - half.rss)) / half.rss,
    peakKiB: last.hwm,
    peakOverLastPct: (100 * (last.hwm - last.rss)) / last.rss,
    flat: (100 * (last.rss - half.rss)) / half.rss <= FLAT_PCT && last.hwm <= last.rss * (1 + PEAK_PCT / 100),
  };
}
const growth = (kib, pct) => `${kib >= 0 ? "+" : ""}${mib(kib)} MiB (${f1(pct)}%)`;

// floorReport compares the go-sdk floor with the official server (what the
// SDK alone costs) and thinkgraph with the floor (what thinkgraph adds).
function floorReport(s, lat, rss) {
  const rows = [];
  const row = (measure, floor, official, ours, unit, digits) => {
    const fmt = (x) => `${digits === 1 ? f1(x) : f3(x)} ${unit}`;
    rows.push([measure, fmt(floor), fmt(official), fmt(ours), f2(ratio(floor, official)), f2(ratio(ours, floor))]);
  };
  if (s?.floor) {
    row("cold start, median", s.floor.median, s.official.median, s.thinkgraph.median, "ms", 1);
    const fc = s.first_call;
    row("spawn → first call answered, median", fc[FLOOR].median, fc["official (logging)"].median, fc[OURS].median, "ms", 1);
  }
  if (lat?.available && lat[FLOOR]) {
    row("sequentialthinking latency, median (vs official (quiet))", lat[FLOOR].median, lat["official (quiet)"].median, lat[OURS].median, "ms", 3);
    row("sequentialthinking latency, p99 (vs official (quiet))", lat[FLOOR].p99, lat["official (quiet)"].p99, lat[OURS].p99, "ms", 3);
  }
  if (rss) {
    const fl = rss.servers.find((x) => x.server === FLOOR);
    const off = rss.servers.find((x) => x.server === "official (quiet)");
    const ours = rss.servers.find((x) => x.label === "thinkgraph sequentialthinking") ?? rss.servers.find((x) => x.label === `${OURS} think`);
    if (fl && off && ours) {
      const v = (x) => x.samples.at(-1).rss / 1024;
      row(`RSS after ${rss.calls} calls (vs official (quiet); thinkgraph: ${ours.tool})`, v(fl), v(off), v(ours), "MiB", 1);
    }
  }
  if (rows.length === 0) return [];
  return [
    "The go-sdk floor: the official server ported to the MCP Go SDK thinkgraph is built on (bench/floor: in memory, no database), in the same run.",
    "floor/official is what the SDK alone costs against the official server: no server on this SDK can show a lower ratio in this setup.",
    "thinkgraph/floor is what thinkgraph adds on top of the SDK (the database, the graph, the analyses).",
    "",
    "| measure | go-sdk floor | official | thinkgraph | floor/official | thinkgraph/floor |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
  ];
}

function report() {
  const L = [];
  const m = machine;
  L.push(`# thinkgraph vs ${m.official}`);
  L.push("");
  L.push(`${m.date} · ${m.nproc} × ${m.cpu} · ${m.memory_gib} GiB · ${m.kernel}`);
  L.push(`load average (1, 5, 15 min) at start ${m.loadavg_start.join(", ")}, at end ${m.loadavg_end.join(", ")} on ${m.nproc} cores${Math.max(...m.loadavg_start, ...m.loadavg_end) > m.nproc ? " — the machine was busy with other work: figures are noisy" : ""}`);
  L.push(`${m.node} · ${m.go} · thinkgraph ${m.thinkgraph_version || "?"} at ${m.commit} · client ${m.sdk} over stdio`);
  L.push("");
  L.push("Official server: run directly as `node …/server-sequential-thinking/dist/index.js` (the pid measured is that node process).");
  L.push("`official (quiet)` has DISABLE_THOUGHT_LOGGING=true; `official (logging)` is its default, which writes every thought, boxed, to stderr (the client drains stderr).");
  L.push("thinkgraph writes every thought durably to SQLite (WAL, synchronous=NORMAL) in a fresh database file on local disk; the official server keeps thoughts in memory only.");
  L.push("");

  const rows = [];
  const s = results.start;
  if (s) {
    const r = ratio(s.thinkgraph.median, s.official.median);
    rows.push(["cold start, median (spawn → initialize answered)", `${f1(s.thinkgraph.median)} ms`, `${f1(s.official.median)} ms`, f3(r), "≤ 0.1", verdict(r, 0.1)]);
    const r90 = ratio(s.thinkgraph.p90, s.official.p90);
    rows.push(["cold start, p90", `${f1(s.thinkgraph.p90)} ms`, `${f1(s.official.p90)} ms`, f3(r90), "≤ 0.1", verdict(r90, 0.1)]);
    const fc = s.first_call;
    if (fc) {
      const rf = ratio(fc[OURS].median, fc["official (logging)"].median);
      rows.push(["spawn → first call answered, median (informative)", `${f1(fc[OURS].median)} ms`, `${f1(fc["official (logging)"].median)} ms`, f3(rf), "—", "the handshake plus one sequentialthinking call"]);
    }
  }
  const lat = results.latency;
  if (lat && lat.available) {
    for (const t of THEIRS) {
      const rm = ratio(lat[OURS].median, lat[t].median);
      const rp = ratio(lat[OURS].p99, lat[t].p99);
      rows.push([`sequentialthinking latency, median vs ${t}`, `${f3(lat[OURS].median)} ms`, `${f3(lat[t].median)} ms`, f2(rm), "≤ 0.6", verdict(rm, 0.6)]);
      rows.push([`sequentialthinking latency, p99 vs ${t}`, `${f3(lat[OURS].p99)} ms`, `${f3(lat[t].p99)} ms`, f2(rp), "≤ 0.5", verdict(rp, 0.5)]);
    }
  } else if (parts.has("latency")) {
    rows.push(["sequentialthinking latency, median / p99", "not available", "—", "—", "≤ 0.6 / ≤ 0.5", "not available: " + (lat?.reason ?? "not run")]);
  }
  const rss = results.rss;
  if (rss) {
    const ours = rss.servers.find((x) => x.label === `${OURS} think`);
    for (const t of THEIRS) {
      const th = rss.servers.find((x) => x.server === t);
      const r = ratio(ours.samples.at(-1).rss, th.samples.at(-1).rss);
      const fl = flatness(ours.samples);
      rows.push([
        `RSS after ${rss.calls} calls (ours: think) vs ${t}`,
        `${mib(ours.samples.at(-1).rss)} MiB`,
        `${mib(th.samples.at(-1).rss)} MiB`,
        f2(r),
        "≤ 0.5 and flat",
        `${verdict(r, 0.5)}; ours ${growth(fl.halfGrowthKiB, fl.halfGrowthPct)} from ${fl.halfFrom} to ${fl.to} calls, peak ${mib(fl.peakKiB)} MiB: ${fl.flat ? "flat" : "NOT flat"}`,
      ]);
    }
    // VmRSS counts the pages of the executable mapped from the page cache
    // (RssFile) as well as the process's own memory (RssAnon); the Go binary
    // is large (SDKs) while node's own binary is shared too. Both are shown.
    for (const t of THEIRS) {
      const th = rss.servers.find((x) => x.server === t);
      const a = ours.samples.at(-1), b = th.samples.at(-1);
      rows.push([
        `anonymous memory (RssAnon) after ${rss.calls} calls (ours: think) vs ${t}`,
        `${mib(a.anon)} MiB (+${mib(a.file)} MiB file-backed)`,
        `${mib(b.anon)} MiB (+${mib(b.file)} MiB file-backed)`,
        f2(ratio(a.anon, b.anon)),
        "(informative)",
        "RssAnon: the process's own memory; file-backed pages are the mapped executable",
      ]);
    }
    const seq = rss.servers.find((x) => x.label === "thinkgraph sequentialthinking");
    if (seq) {
      const th = rss.servers.find((x) => x.server === "official (quiet)");
      const r = ratio(seq.samples.at(-1).rss, th.samples.at(-1).rss);
      const fl = flatness(seq.samples);
      rows.push([
        `RSS after ${rss.calls} calls, both sequentialthinking, vs official (quiet)`,
        `${mib(seq.samples.at(-1).rss)} MiB`,
        `${mib(th.samples.at(-1).rss)} MiB`,
        f2(r),
        "≤ 0.5 and flat",
        `${verdict(r, 0.5)}; ours ${growth(fl.halfGrowthKiB, fl.halfGrowthPct)} from ${fl.halfFrom} to ${fl.to} calls, peak ${mib(fl.peakKiB)} MiB: ${fl.flat ? "flat" : "NOT flat"}`,
      ]);
    }
  }
  L.push("| measure | thinkgraph | official | ours/theirs | target | verdict |");
  L.push("|---|---|---|---|---|---|");
  for (const r of rows) L.push(`| ${r.join(" | ")} |`);
  L.push("");
  if (opts.floor) L.push(...floorReport(s, lat, rss));
  if (s) {
    L.push(`Cold start: ${s.runs} runs each, alternating order, after one unrecorded warm-up each; a fresh database file for every thinkgraph run (so it includes creating the schema). Official server with default logging (logging does not matter before the first thought).`);
    L.push(`thinkgraph: min ${f1(s.thinkgraph.min)} / median ${f1(s.thinkgraph.median)} / p90 ${f1(s.thinkgraph.p90)} / max ${f1(s.thinkgraph.max)} ms; official: min ${f1(s.official.min)} / median ${f1(s.official.median)} / p90 ${f1(s.official.p90)} / max ${f1(s.official.max)} ms.`);
    L.push("");
  }
  if (lat && lat.available) {
    L.push(`Latency: ${lat.calls} sequential \`sequentialthinking\` calls per server (thoughtNumber incrementing, one connection session each), after ${lat.warmup} unrecorded warm-up calls; the servers are live together and calls alternate one by one. Time is the client's: callTool sent → result parsed and checked against the output schema.`);
    L.push("");
    L.push("| server | min | median | p90 | p99 | max |");
    L.push("|---|---|---|---|---|---|");
    for (const n of [OURS, ...THEIRS, ...FLOORS]) {
      const x = lat[n];
      L.push(`| ${n} | ${f3(x.min)} | ${f3(x.median)} | ${f3(x.p90)} | ${f3(x.p99)} | ${f3(x.max)} |`);
    }
    L.push("");
  }
  if (rss) {
    L.push(`Memory: VmRSS of the server process (/proc/<pid>/status) while ${rss.calls} calls alternate one by one between the servers; MiB. thinkgraph uses \`think\`${rss.servers.some((x) => x.label === "thinkgraph sequentialthinking") ? " (and, as a separate process, `sequentialthinking`)" : ""}; the official server \`sequentialthinking\` with thoughtNumber incrementing. Peak is VmHWM at the end.`);
    L.push("");
    const cols = rss.servers[0].samples.map((x) => x.calls);
    const fl0 = flatness(rss.servers[0].samples);
    L.push(`| server | ${cols.map((c) => `${c} calls`).join(" | ")} | peak | growth ${fl0.from}→${fl0.to} | growth ${fl0.halfFrom}→${fl0.to} |`);
    L.push(`|---|${cols.map(() => "---").join("|")}|---|---|---|`);
    for (const x of rss.servers) {
      const fl = flatness(x.samples);
      L.push(`| ${x.label} | ${x.samples.map((y) => mib(y.rss)).join(" | ")} | ${mib(x.samples.at(-1).hwm)} | ${growth(fl.growthKiB, fl.growthPct)} | ${growth(fl.halfGrowthKiB, fl.halfGrowthPct)} |`);
    }
    L.push(`\n"Flat" in the verdicts means VmRSS grew by at most ${FLAT_PCT}% over the second half of the run (${fl0.halfFrom} → ${fl0.to} calls) and the peak (VmHWM) is at most ${PEAK_PCT}% above the final VmRSS; the growth from ${fl0.from} calls is shown beside it. \`--calls 100000\` shows the curve further out.`);
    const logging = rss.servers.find((x) => x.server === "official (logging)");
    if (logging) L.push(`\nofficial (logging) wrote ${(logging.stderr_bytes / 2 ** 20).toFixed(1)} MiB to stderr over the run.`);
    L.push("");
  }
  return L.join("\n");
}

// ---------------------------------------------------------------- main
const ourTools = new Set();
{
  const c = await connect(OURS);
  for (const t of (await c.client.listTools()).tools) ourTools.add(t.name);
  await c.close();
}
log(`thinkgraph tools: ${[...ourTools].join(", ")}`);
const started = performance.now();
if (parts.has("start")) await benchStart();
if (parts.has("latency")) await benchLatency(ourTools);
if (parts.has("rss")) await benchRSS(ourTools);
machine.loadavg_end = os.loadavg().map((x) => +x.toFixed(2));
results.elapsed_s = +((performance.now() - started) / 1000).toFixed(1);

const md = report() + `\nTotal time: ${results.elapsed_s} s.\n`;
console.log(md);
fs.mkdirSync(opts.out, { recursive: true });
const stamp = machine.date.replace(/[:.]/g, "-");
const suffix = opts.calls !== 10000 ? `-calls${opts.calls}` : "";
for (const [name, body] of [
  [`${stamp}${suffix}.json`, JSON.stringify(results, null, 2) + "\n"],
  [`${stamp}${suffix}.md`, md],
  [`latest${suffix}.json`, JSON.stringify(results, null, 2) + "\n"],
  [`latest${suffix}.md`, md],
]) {
  fs.writeFileSync(path.join(opts.out, name), body);
}
log(`results: ${path.relative(process.cwd(), path.join(opts.out, `${stamp}${suffix}.{json,md}`))} (and latest${suffix}.{json,md})`);
process.exit(0);
