// End-to-end test of MCP sampling through both official TypeScript SDK
// clients over stdio, with no LLM provider configured, so that the server's
// reasoning tools must ask the client's own model:
//
//   - @modelcontextprotocol/sdk (v1, protocol 2025-11-25): the server sends
//     sampling/createMessage requests during the tool call;
//   - @modelcontextprotocol/client (v2, protocol 2026-07-28): the tool call
//     returns input_required results (multi round-trip requests, SEP-2322)
//     that the client's driver fulfils and retries.
//
//   node e2e/sampling.mjs <thinkgraph-binary> <database-dir>
//
// Exits 0 when every check passes; otherwise prints every failed check (and
// the server's stderr) and exits 1.

import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { check, checkCount, eq, failures } from "./check.mjs";

const [binary, dir] = process.argv.slice(2);
if (!binary || !dir) {
  console.error("usage: node sampling.mjs <thinkgraph-binary> <database-dir>");
  process.exit(2);
}

// The client's "model": a linear answer, or a critique for reflection.
function answer(params) {
  const sys = params.systemPrompt ?? "";
  const last = params.messages.at(-1);
  const blocks = Array.isArray(last.content) ? last.content : [last.content];
  const text = blocks.map((b) => b.text ?? "").join("");
  if (sys.includes("Critique")) {
    return JSON.stringify({ critique: `weak: ${text}`, improved_thought: `better: ${text}`, confidence: 0.85 });
  }
  return JSON.stringify({ thought: `answer to: ${text}`, confidence: 0.7 });
}

// Without any provider key in the environment, the server must use sampling.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(OPENAI_|ANTHROPIC_|LANGBASE_|THINKGRAPH_LLM_PROVIDER)/.test(k)),
);

async function run(label, client, transport, stderr) {
  const requests = [];
  client.setRequestHandler(label === "v1" ? CreateMessageRequestSchema : "sampling/createMessage", async (req) => {
    requests.push(req.params);
    return { model: `client-model-${label}`, role: "assistant", content: { type: "text", text: answer(req.params) } };
  });
  await client.connect(transport);
  if (label === "v2") {
    const v = client.getNegotiatedProtocolVersion();
    check(v >= "2026-07-28", "v2: negotiated protocol 2026-07-28 or later (multi round-trip sampling)", v);
  }
  const text = (res) => res.content?.[0]?.text ?? "";
  // A client that declared sampling gets the LLM-backed tools listed
  // though no provider is configured.
  const names = (await client.listTools()).tools.map((t) => t.name);
  check(["reasoning_linear", "reasoning_reflection", "confer", "planner"].every((n) => names.includes(n)),
    `${label}: the LLM-backed tools are listed to a client that declared sampling`, names);
  try {
    const lin = await client.callTool({ name: "reasoning_linear", arguments: { content: `hello from ${label}` } });
    check(!lin.isError, `${label}: reasoning_linear succeeds`, text(lin));
    const out = lin.structuredContent ?? {};
    eq(out.content, `answer to: hello from ${label}`, `${label}: linear answer is the client's model's`);
    eq(out.confidence, 0.7, `${label}: linear confidence`);
    eq(out.model, `client-model-${label}`, `${label}: linear model`);
    eq(requests.length, 1, `${label}: one sampling request for linear`);

    const refl = await client.callTool({
      name: "reasoning_reflection",
      arguments: { thought_id: out.thought_id, session_id: out.session_id, iterations: 3 },
    });
    check(!refl.isError, `${label}: reasoning_reflection succeeds`, text(refl));
    const its = refl.structuredContent?.iterations ?? [];
    eq(its.length, 3, `${label}: three reflection iterations`);
    eq(its[2]?.improved_thought, `better: better: better: answer to: hello from ${label}`, `${label}: each iteration refines the last`);
    eq(requests.length, 4, `${label}: one sampling request per iteration`);

    const path = await client.callTool({ name: "show_current_path", arguments: { session_id: out.session_id } });
    const nodes = path.structuredContent?.path ?? [];
    eq(nodes[0]?.thought, `hello from ${label}`, `${label}: the input is stored first`);
    eq(nodes.at(-1)?.thought, its[2]?.improved_thought, `${label}: the last improvement is current`);
  } finally {
    await client.close();
  }
  if (failures.length) console.error(`--- server stderr (${label}) ---\n${stderr()}`);
}

function spawnArgs(db) {
  return { command: binary, args: ["serve", "--db", db], env: { ...env, LOG_LEVEL: "warn" }, stderr: "pipe" };
}

for (const [label, Client, Stdio] of [
  ["v1", ClientV1, StdioV1],
  ["v2", ClientV2, StdioV2],
]) {
  const transport = new Stdio(spawnArgs(`${dir}/sampling-${label}.db`));
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d.toString()));
  const opts = { capabilities: { sampling: {} } };
  if (label === "v2") opts.versionNegotiation = { mode: { pin: "2026-07-28" } };
  const client = new Client({ name: `thinkgraph-e2e-sampling-${label}`, version: "1.0.0" }, opts);
  try {
    await run(label, client, transport, () => stderr);
  } catch (err) {
    check(false, `${label}: ${err?.stack ?? err}`);
    console.error(`--- server stderr (${label}) ---\n${stderr}`);
  }
}

console.log(`${checkCount() - failures.length}/${checkCount()} checks passed`);
process.exit(failures.length ? 1 : 0);
