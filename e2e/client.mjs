// End-to-end test of thinkgraph through the official MCP TypeScript SDK
// client over stdio.
//
//   node e2e/client.mjs <thinkgraph-binary> <database-file>
//
// Spawns `<binary> serve --db <database-file>`, then checks the tool list, the
// think tool, the session context resource and, when the server lists it,
// sequentialthinking. Exits 0 when every check passes; otherwise prints every
// failed check (and the server's stderr) and exits 1.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { check, checkCount, eq, failures } from "./check.mjs";

const [binary, db] = process.argv.slice(2);
if (!binary || !db) {
  console.error("usage: node client.mjs <thinkgraph-binary> <database-file>");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: binary,
  args: ["serve", "--db", db],
  env: { ...process.env, LOG_LEVEL: "warn" },
  stderr: "pipe",
});
let serverStderr = "";
transport.stderr?.on("data", (d) => {
  serverStderr += d.toString();
});

const client = new Client({ name: "thinkgraph-e2e", version: "1.0.0" });

// callTool that returns the result whatever isError says; the SDK itself
// validates structuredContent against the tool's outputSchema for non-error
// results (and throws on a mismatch), which is part of what is tested here.
//
// When the SDK rejects a result (for example an error result whose
// structuredContent does not match the outputSchema: the TypeScript client
// validates any structuredContent present, error or not, and throws instead
// of handing the error text to the model), that is recorded as a failure and
// the call is repeated without the SDK's validation, so the remaining checks
// still run and report.
async function call(name, args) {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (err) {
    check(false, `${name}(${JSON.stringify(args).slice(0, 120)}): the TypeScript SDK client rejected the result: ${err?.message ?? err}`);
    return client.request({ method: "tools/call", params: { name, arguments: args } }, CallToolResultSchema);
  }
}
function text(res) {
  return res?.content?.[0]?.type === "text" ? res.content[0].text : undefined;
}
// ok asserts a successful tool result and returns its structured content,
// checking that the text content is the same JSON.
function ok(res, what) {
  check(res && !res.isError, `${what}: isError is not set`, res);
  const sc = res?.structuredContent;
  check(sc && typeof sc === "object", `${what}: structuredContent present`, res);
  try {
    const fromText = JSON.parse(text(res));
    check(JSON.stringify(fromText) === JSON.stringify(sc), `${what}: text content is the structured content as JSON`, { text: text(res), sc });
  } catch {
    check(false, `${what}: text content is JSON`, text(res));
  }
  return sc ?? {};
}

async function main() {
  await client.connect(transport);
  const info = client.getServerVersion();
  check(info?.name, "initialize: serverInfo.name set", info);
  check(client.getServerCapabilities()?.tools, "initialize: tools capability", client.getServerCapabilities());
  check(client.getServerCapabilities()?.resources, "initialize: resources capability", client.getServerCapabilities());

  // --- tools/list
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const think = byName.think;
  check(think, "tools/list: think listed", tools.map((t) => t.name));
  check(byName.clear_context, "tools/list: clear_context listed", tools.map((t) => t.name));
  if (think) {
    const a = think.annotations ?? {};
    // MCP's defaults are readOnlyHint=false, idempotentHint=false, so an
    // omitted hint is the correct "false"; true would be wrong.
    check(a.readOnlyHint !== true, "think annotations: readOnlyHint false", a);
    check(a.idempotentHint !== true, "think annotations: idempotentHint false", a);
    check(think.outputSchema && think.outputSchema.type === "object", "think: outputSchema present", think.outputSchema);
    check(think.inputSchema?.properties?.thought, "think: inputSchema has thought", think.inputSchema);
    check((think.inputSchema?.required ?? []).includes("thought"), "think: thought required", think.inputSchema);
    check(typeof think.description === "string" && think.description.length > 40, "think: description present", think.description);
  }

  // --- think: the connection's own session
  let r = ok(await call("think", { thought: "first thought on the connection session" }), "think #1");
  eq(r.status, "success", "think #1 status (no confidence)");
  eq(r.step, 1, "think #1 step");
  eq(r.thought, "first thought on the connection session", "think #1 thought echoed");
  eq(r.context_size, 1, "think #1 context_size");
  eq(r.requires_alternatives, false, "think #1 requires_alternatives");
  check(typeof r.session_id === "string" && r.session_id.length > 0, "think #1 session_id set", r);
  check(typeof r.current_node_id === "string" && r.current_node_id.length > 0, "think #1 current_node_id set", r);
  check(typeof r.message === "string" && r.message.length > 0, "think #1 message set", r);
  const connSession = r.session_id;
  const firstNode = r.current_node_id;

  r = ok(await call("think", { thought: "second: high confidence", confidence: 0.9 }), "think #2");
  eq(r.step, 2, "think #2 step");
  eq(r.status, "continue", "think #2 status (confidence 0.9)");
  eq(r.requires_alternatives, false, "think #2 requires_alternatives");
  eq(r.session_id, connSession, "think #2 same connection session");
  check(r.current_node_id !== firstNode, "think #2 new current node", r);

  r = ok(await call("think", { thought: "third: low confidence", confidence: 0.3 }), "think #3");
  eq(r.step, 3, "think #3 step");
  eq(r.status, "branch", "think #3 status (confidence 0.3)");
  eq(r.requires_alternatives, true, "think #3 requires_alternatives");

  r = ok(await call("think", { thought: "fourth: confidence as a string", confidence: "0.8" }), "think #4");
  eq(r.step, 4, "think #4 step");
  eq(r.status, "continue", 'think #4 status (confidence "0.8")');

  // --- think: explicit session ids
  const sid = `e2e-${process.pid}-${Date.now()}`;
  for (let i = 1; i <= 3; i++) {
    r = ok(await call("think", { thought: `explicit step ${i}`, session_id: sid }), `think explicit #${i}`);
    eq(r.step, i, `think explicit #${i} step`);
    eq(r.session_id, sid, `think explicit #${i} session_id`);
    eq(r.context_size, i, `think explicit #${i} context_size`);
  }
  r = ok(await call("think", { thought: "fifth on the connection session" }), "think #5");
  eq(r.step, 5, "think #5 step (explicit session did not disturb the connection session)");
  eq(r.session_id, connSession, "think #5 connection session");

  // --- think: errors
  let res = await call("think", { thought: "" });
  eq(res.isError, true, "empty thought: isError");
  eq(text(res), "Error: 'thought' parameter is required", "empty thought: text");
  res = await call("think", {});
  eq(res.isError, true, "missing thought: isError");
  eq(text(res), "Error: 'thought' parameter is required", "missing thought: text");
  res = await call("think", { thought: "x", confidence: 1.5 });
  eq(res.isError, true, "confidence 1.5: isError");
  check(/^Error: /.test(text(res) ?? "") && /confidence/.test(text(res) ?? ""), "confidence 1.5: error names the field", text(res));
  res = await call("think", { thought: "x".repeat(10001) });
  eq(res.isError, true, "thought of 10,001 characters: isError");
  check(/^Error: /.test(text(res) ?? "") && /10,?000/.test(text(res) ?? ""), "long thought: error says the limit", text(res));
  // Errors wrote nothing: the next step on the connection session is 6.
  r = ok(await call("think", { thought: "sixth, after the errors" }), "think #6");
  eq(r.step, 6, "think #6 step (failed calls wrote nothing)");

  // --- resources
  const rr = await client.readResource({ uri: `thinkgraph://sessions/${sid}/context` });
  const ctxText = rr.contents?.[0]?.text ?? "";
  check(ctxText.startsWith("Previous thoughts in this session:"), "context resource: header", ctxText);
  for (let i = 1; i <= 3; i++) {
    check(new RegExp(`Step ${i} \\([^)]*\\):\\nexplicit step ${i}`).test(ctxText), `context resource: step ${i}`, ctxText);
  }
  check(!ctxText.includes("first thought on the connection session"), "context resource: only this session's thoughts", ctxText);
  const summaryPart = rr.contents?.find((c) => c.mimeType === "application/json");
  if (summaryPart) {
    const summary = JSON.parse(summaryPart.text);
    eq(summary.total_steps, 3, "context resource summary: total_steps");
  } else {
    check(false, "context resource: summary part present", rr.contents);
  }
  const sr = await client.readResource({ uri: `thinkgraph://sessions/${sid}/summary` });
  eq(JSON.parse(sr.contents?.[0]?.text ?? "{}").session_id, sid, "summary resource: session_id");
  let notFound = false;
  try {
    await client.readResource({ uri: "thinkgraph://sessions/no-such-session-e2e/context" });
  } catch {
    notFound = true;
  }
  check(notFound, "context resource of an unknown session is an error");

  // --- clear_context
  r = ok(await call("clear_context", { session_id: sid }), "clear_context");
  eq(r.cleared, 3, "clear_context cleared");
  eq(r.total_steps, 3, "clear_context total_steps");
  r = ok(await call("think", { thought: "after clear", session_id: sid }), "think after clear");
  eq(r.step, 4, "think after clear: step continues");
  eq(r.context_size, 1, "think after clear: context_size");

  // --- sequentialthinking, when the server has it
  const seq = byName.sequentialthinking;
  if (!seq) {
    console.log("note: the server does not list sequentialthinking; its checks were skipped");
  } else {
    await sequentialThinking(seq);
  }

  // --- seed 001 navigation tools, when the server has them
  const nav = ["select_path", "backtrack", "show_current_path", "get_unexplored_branches"];
  if (nav.every((n) => byName[n])) {
    await confidenceGraph();
  } else {
    console.log(`note: the server does not list ${nav.filter((n) => !byName[n]).join(", ")}; the seed 001 checks were skipped`);
  }
}

async function confidenceGraph() {
  const sid = `e2e-graph-${process.pid}-${Date.now()}`;
  const g = (name, args, what) => call(name, { session_id: sid, ...args }).then((res) => ok(res, what));
  let r = await g("think", { thought: "root", confidence: 0.9 }, "graph: think root");
  const rootId = r.current_node_id;
  r = await g("think", { thought: "unsure", confidence: 0.3 }, "graph: think unsure");
  eq(r.status, "branch", "graph: unsure is a branch point");
  const alternatives = [
    { thought: "alt A", confidence: 0.8 },
    { thought: "alt B", confidence: 0.7 },
  ];

  let res = await call("select_path", { session_id: sid, alternatives, selected_index: 5 });
  eq(res.isError, true, "select_path index 5 of 2: isError");
  check(/selected_index/.test(text(res) ?? ""), "select_path index 5 of 2: error names selected_index", text(res));
  r = await g("show_current_path", {}, "graph: path after the failed select");
  eq(r.total_nodes, 2, "graph: a failed select_path wrote nothing");

  r = await g("select_path", { alternatives, selected_index: 0 }, "graph: select_path");
  eq(r.status, "success", "select_path status");
  eq(r.selected_thought, "alt A", "select_path selected_thought");
  check(Array.isArray(r.alternatives) && r.alternatives.length === 2, "select_path lists both alternatives", r.alternatives);
  const altB = r.alternatives?.find((x) => x.thought === "alt B")?.node_id;
  const altA = r.current_node_id;

  r = await g("show_current_path", {}, "graph: show_current_path");
  eq(JSON.stringify(r.path?.map((x) => x.thought)), JSON.stringify(["root", "unsure", "alt A"]), "show_current_path thoughts");
  eq(r.total_nodes, 3, "show_current_path total_nodes");
  eq(r.path?.at(-1)?.node_id, altA, "show_current_path ends at the current thought");
  eq(r.path?.[1]?.branch_point, true, "show_current_path: unsure is a branch point");

  r = await g("get_unexplored_branches", {}, "graph: get_unexplored_branches");
  let entry = r.unexplored?.find((u) => u.branch_thought === "unsure");
  check(entry && entry.alternatives?.some((x) => x.node_id === altB && x.thought === "alt B"), "get_unexplored_branches lists alt B under unsure", r.unexplored);
  check(entry && !entry.alternatives?.some((x) => x.thought === "alt A"), "get_unexplored_branches does not list the selected alt A", r.unexplored);

  r = await g("backtrack", {}, "graph: backtrack from alt A");
  eq(r.status, "success", "backtrack status");
  eq(r.backtracked_to?.thought, "root", "backtrack skips unsure (0.3) to root (0.9)");
  eq(r.current_node_id, rootId, "backtrack makes root current");

  r = await g("select_path", { node_id: altB }, "graph: select_path by node_id");
  eq(r.selected_thought, "alt B", "select_path by node_id: selected_thought");
  r = await g("get_unexplored_branches", {}, "graph: get_unexplored_branches after selecting alt B");
  entry = r.unexplored?.find((u) => u.branch_thought === "unsure");
  check(!entry || !entry.alternatives?.some((x) => x.node_id === altB), "alt B is no longer unexplored", r.unexplored);

  r = await g("backtrack", {}, "graph: backtrack from alt B");
  eq(r.backtracked_to?.thought, "root", "backtrack from alt B to root");
  r = await g("backtrack", {}, "graph: backtrack from root");
  eq(r.status, "no_target", "backtrack from root: no_target");
  eq(r.backtracked_to ?? null, null, "backtrack no_target: backtracked_to null");
  eq(r.current_node_id, rootId, "backtrack no_target: current unchanged");
}

async function sequentialThinking(seq) {
  const a = seq.annotations ?? {};
  check(a.readOnlyHint !== true, "sequentialthinking annotations: readOnlyHint false (it writes)", a);
  check(a.idempotentHint !== true, "sequentialthinking annotations: idempotentHint false", a);
  check(seq.outputSchema && seq.outputSchema.type === "object", "sequentialthinking: outputSchema present", seq.outputSchema);
  for (const f of ["thought", "nextThoughtNeeded", "thoughtNumber", "totalThoughts"]) {
    check((seq.inputSchema?.required ?? []).includes(f), `sequentialthinking: ${f} required`, seq.inputSchema?.required);
  }
  for (const f of ["isRevision", "revisesThought", "branchFromThought", "branchId", "needsMoreThoughts"]) {
    check(seq.inputSchema?.properties?.[f], `sequentialthinking: input property ${f}`, Object.keys(seq.inputSchema?.properties ?? {}));
  }

  const sid = `e2e-seq-${process.pid}-${Date.now()}`;
  const st = (args, what) => call("sequentialthinking", { session_id: sid, ...args }).then((res) => ok(res, what));
  const fields = (r, what) => {
    for (const f of ["thoughtNumber", "totalThoughts", "nextThoughtNeeded", "branches", "thoughtHistoryLength", "thought", "session_id"]) {
      check(f in r, `${what}: output field ${f}`, r);
    }
  };

  let r = await st({ thought: "seq one", nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 3 }, "seq #1");
  fields(r, "seq #1");
  eq(r.thoughtNumber, 1, "seq #1 thoughtNumber");
  eq(r.totalThoughts, 3, "seq #1 totalThoughts");
  eq(r.nextThoughtNeeded, true, "seq #1 nextThoughtNeeded");
  eq(r.thoughtHistoryLength, 1, "seq #1 thoughtHistoryLength");
  eq(r.thought, "seq one", "seq #1 thought echoed");
  eq(r.session_id, sid, "seq #1 session_id");
  check(Array.isArray(r.branches) && r.branches.length === 0, "seq #1 branches empty", r.branches);

  // Numbers (and a boolean) sent as strings.
  r = await st({ thought: "seq two, numbers as strings", nextThoughtNeeded: "true", thoughtNumber: "2", totalThoughts: "3" }, "seq #2 (strings)");
  eq(r.thoughtNumber, 2, 'seq #2 thoughtNumber from "2"');
  eq(r.totalThoughts, 3, 'seq #2 totalThoughts from "3"');
  eq(r.nextThoughtNeeded, true, 'seq #2 nextThoughtNeeded from "true"');
  eq(r.thoughtHistoryLength, 2, "seq #2 thoughtHistoryLength");

  // Revision of thought 1.
  r = await st({ thought: "seq three revises one", nextThoughtNeeded: true, thoughtNumber: 3, totalThoughts: 3, isRevision: true, revisesThought: 1 }, "seq #3 (revision)");
  eq(r.thoughtNumber, 3, "seq #3 thoughtNumber");
  eq(r.thoughtHistoryLength, 3, "seq #3 thoughtHistoryLength");

  // A revision of a thought the session does not have is accepted and
  // recorded, as the official server (one history per process) accepts it.
  let res = await call("sequentialthinking", { session_id: sid, thought: "revises nothing", nextThoughtNeeded: true, thoughtNumber: 4, totalThoughts: 4, isRevision: true, revisesThought: 99 });
  eq(res.isError ?? false, false, "seq revision of thought 99: accepted");

  // Branch from thought 2; thoughtNumber > totalThoughts raises totalThoughts.
  r = await st({ thought: "seq branch from two", nextThoughtNeeded: true, thoughtNumber: 5, totalThoughts: "4", branchFromThought: "2", branchId: "alt-a" }, "seq #4 (branch)");
  eq(r.thoughtNumber, 5, "seq branch thoughtNumber");
  eq(r.totalThoughts, 5, "seq branch: thoughtNumber > totalThoughts raises totalThoughts");
  check(Array.isArray(r.branches) && r.branches.includes("alt-a"), "seq branch: branches lists alt-a", r.branches);
  eq(r.thoughtHistoryLength, 5, "seq branch thoughtHistoryLength (the revision of thought 99 was recorded)");

  r = await st({ thought: "seq done", nextThoughtNeeded: false, thoughtNumber: 6, totalThoughts: 6 }, "seq #5");
  eq(r.nextThoughtNeeded, false, "seq #5 nextThoughtNeeded false");
  eq(r.thoughtHistoryLength, 6, "seq #5 thoughtHistoryLength");
  check(Array.isArray(r.branches) && r.branches.includes("alt-a"), "seq #5 branches still lists alt-a", r.branches);

  // Missing required field, bad number.
  res = await call("sequentialthinking", { session_id: sid, thought: "no number", nextThoughtNeeded: true, totalThoughts: 3 });
  eq(res.isError, true, "seq without thoughtNumber: isError");
  check(/thoughtNumber/.test(text(res) ?? ""), "seq without thoughtNumber: error names the field", text(res));
  res = await call("sequentialthinking", { session_id: sid, thought: "bad number", nextThoughtNeeded: true, thoughtNumber: "two", totalThoughts: 3 });
  eq(res.isError, true, 'seq thoughtNumber "two": isError');
  check(/thoughtNumber/.test(text(res) ?? ""), 'seq thoughtNumber "two": error names the field', text(res));
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  failures.push(`exception: ${err?.stack ?? err}`);
  console.error(`FAIL exception: ${err?.stack ?? err}`);
}
try {
  await client.close();
} catch {
  // closing a dead transport is fine
}
if (failures.length > 0) {
  console.error(`\n${failures.length} of ${checkCount()} checks failed`);
  if (serverStderr) console.error(`--- server stderr ---\n${serverStderr}`);
  exitCode = 1;
} else {
  console.log(`e2e: ${checkCount()} checks passed`);
}
process.exit(exitCode);
