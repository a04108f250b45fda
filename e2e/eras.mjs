// End-to-end test of both eras of the MCP protocol on every transport, with
// the official TypeScript SDK clients:
//
//   - @modelcontextprotocol/client (v2) pinned to 2026-07-28 and in mode
//     "auto" (which must end in 2026-07-28), over stdio, the default HTTP
//     endpoint and the --stateless one: discover, list tools, prompts and
//     resources, write with think and branch-thinking and evaluate, a
//     reasoning tool through multi round-trip sampling, subscriptions/listen
//     on a session's resource and, over HTTP, a person's feedback from the
//     viewer delivered once and another tenant kept out;
//   - the 2025 era on the default HTTP endpoint, with the v2 client in its
//     legacy mode and the v1 SDK: the Mcp-Session-Id session, the
//     connection's own reasoning session, resources/subscribe updates and
//     sampling requests during a call.
//
//   node e2e/eras.mjs <binary> <dir> <http-url> <stateless-url> <token> <other-tenant-token>
//
// The HTTP servers are started by the Go test (e2e_test.go) with a tokens
// file; the stdio server is spawned here. Exits 0 when every check passes;
// otherwise prints every failed check and exits 1.

import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HTTPV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { check, checkCount, eq, failures } from "./check.mjs";

const [binary, dir, httpURL, statelessURL, token, otherToken] = process.argv.slice(2);
if (!otherToken) {
  console.error("usage: node eras.mjs <binary> <dir> <http-url> <stateless-url> <token> <other-tenant-token>");
  process.exit(2);
}
const MODERN = "2026-07-28";

// Without any provider key in the environment, the reasoning tools must
// reach the client's model.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(OPENAI_|ANTHROPIC_|LANGBASE_|THINKGRAPH_LLM_PROVIDER)/.test(k)),
);

// The client's "model".
function sample(label) {
  return async (req) => {
    const last = req.params.messages.at(-1);
    const blocks = Array.isArray(last.content) ? last.content : [last.content];
    const text = blocks.map((b) => b.text ?? "").join("");
    return { model: `model-${label}`, role: "assistant", content: { type: "text", text: JSON.stringify({ thought: `answer to: ${text}`, confidence: 0.7 }) } };
  };
}

const text = (res) => res?.content?.[0]?.text ?? "";

function waitFor(pred, ms, what) {
  return new Promise((resolve) => {
    const start = Date.now();
    const tick = () => {
      if (pred()) return resolve(true);
      if (Date.now() - start > ms) {
        check(false, `${what}: within ${ms} ms`);
        return resolve(false);
      }
      setTimeout(tick, 50);
    };
    tick();
  });
}

function httpTransport(Transport, url, tok) {
  return new Transport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${tok}` } } });
}

function modernClient(label, mode) {
  const c = new Client(
    { name: `thinkgraph-e2e-eras-${label.replace(/ /g, "-")}`, version: "1.0.0" },
    { capabilities: { sampling: {} }, versionNegotiation: { mode: mode === "pin" ? { pin: MODERN } : "auto" } },
  );
  c.setRequestHandler("sampling/createMessage", sample(label));
  return c;
}

// modern runs the checks of a client on the 2026-07-28 era.
// http, for the HTTP endpoints: {url, token, otherToken}.
async function modern(label, client, transport, http) {
  await client.connect(transport);
  eq(client.getNegotiatedProtocolVersion(), MODERN, `${label}: negotiated protocol`);
  const caps = client.getServerCapabilities() ?? {};
  check(caps.tools && caps.resources && caps.prompts, `${label}: server/discover offers tools, resources and prompts`, caps);

  const tools = (await client.listTools()).tools.map((t) => t.name);
  check(["think", "branch-thinking", "sequentialthinking", "reasoning_linear"].every((n) => tools.includes(n)), `${label}: tools/list`, tools);
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  check(prompts.includes("review-reasoning"), `${label}: prompts/list`, prompts);
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  check(templates.some((u) => u.startsWith("thinkgraph://sessions/")), `${label}: resources/templates/list`, templates);

  // Write: a request has no connection session, so the first write opens
  // a reasoning session and the others name it.
  const t1 = await client.callTool({ name: "think", arguments: { thought: `${label}: cache the parsed config per request` } });
  check(!t1.isError, `${label}: think`, text(t1));
  const sid = t1.structuredContent?.session_id;
  check(typeof sid === "string" && sid.length > 0, `${label}: think returns the session`, t1.structuredContent);
  const t2 = await client.callTool({ name: "think", arguments: { thought: "the config is read once per request anyway", session_id: sid } });
  eq(t2.structuredContent?.step, 2, `${label}: the second write continues the session`);

  const uri = `thinkgraph://sessions/${sid}`;
  const updated = [];
  client.setNotificationHandler("notifications/resources/updated", (n) => updated.push(n.params.uri));
  let sub;
  try {
    sub = await client.listen({ resourceSubscriptions: [uri] });
    check((sub.honoredFilter.resourceSubscriptions ?? []).includes(uri), `${label}: subscriptions/listen honours the session's resource`, sub.honoredFilter);
  } catch (err) {
    check(false, `${label}: subscriptions/listen: ${err?.message ?? err}`);
  }

  const b1 = await client.callTool({
    name: "branch-thinking",
    arguments: { session_id: sid, content: "Caching the parsed config saves the parse on every request", type: "hypothesis", branchId: "cache" },
  });
  check(!b1.isError, `${label}: branch-thinking thought`, text(b1));
  const b2 = await client.callTool({
    name: "branch-thinking",
    arguments: { session_id: sid, content: "Measured: the parse takes 2 ms of a 40 ms request", type: "observation", branchId: "cache" },
  });
  check(!b2.isError, `${label}: branch-thinking second thought`, text(b2));
  const ev = await client.callTool({ name: "branch-thinking", arguments: { session_id: sid, command: { type: "evaluate", branchId: "cache" } } });
  check(!ev.isError && typeof ev.structuredContent?.evaluation?.overallScore === "number", `${label}: branch-thinking evaluate`, ev.structuredContent ?? text(ev));
  if (sub) {
    await waitFor(() => updated.includes(uri), 5000, `${label}: notifications/resources/updated on the listen stream after a write`);
    await sub.close();
  }

  const read = await client.readResource({ uri });
  check((read.contents?.[0]?.text ?? "").includes(sid), `${label}: resources/read of the session`, read.contents?.[0]?.text?.slice(0, 200));

  // A reasoning tool reaches the client's model through input_required
  // results (multi round-trip), with no provider configured.
  const lin = await client.callTool({ name: "reasoning_linear", arguments: { content: `hello from ${label}`, session_id: sid } });
  check(!lin.isError, `${label}: reasoning_linear`, text(lin));
  eq(lin.structuredContent?.model, `model-${label}`, `${label}: reasoning_linear answered by the client's model`);
  eq(lin.structuredContent?.content, `answer to: hello from ${label}`, `${label}: reasoning_linear's thought`);

  if (http) {
    // A person's feedback from the viewer reaches the next result once.
    const thought = lin.structuredContent?.thought_id;
    const fb = await fetch(new URL(`/sessions/${encodeURIComponent(sid)}/feedback`, http.url), {
      method: "POST",
      headers: { Authorization: `Bearer ${http.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ thought_id: thought, kind: "comment", text: `seen by a person (${label})` }),
    });
    eq(fb.status, 201, `${label}: the viewer takes a person's feedback`);
    const after = await client.callTool({ name: "think", arguments: { thought: "going on", session_id: sid } });
    const got = (after.structuredContent?.human_feedback ?? []).map((f) => f.text);
    check(got.includes(`seen by a person (${label})`), `${label}: the next result carries the feedback`, after.structuredContent);
    const again = await client.callTool({ name: "think", arguments: { thought: "and on", session_id: sid } });
    check(!again.structuredContent?.human_feedback, `${label}: the feedback is delivered once`, again.structuredContent);

    // Another tenant's session ids are its own: the same id starts a
    // session of that tenant, which holds none of these thoughts.
    const o = modernClient(`${label} other`, "pin");
    await o.connect(httpTransport(StreamableHTTPClientTransport, http.url, http.otherToken));
    const r = await o.callTool({ name: "think", arguments: { thought: "not mine", session_id: sid } });
    check(!r.isError && r.structuredContent?.step === 1 && r.structuredContent?.context_size === 1,
      `${label}: another tenant's write with the same session id starts its own session`, r.structuredContent ?? text(r));
    await o.close();
  }
  await client.close();
}

// legacy runs the checks of a 2025-era client on the default HTTP endpoint.
async function legacy(label, client, transport, v1) {
  await client.connect(transport);
  const version = v1 ? transport.protocolVersion : client.getNegotiatedProtocolVersion();
  check(version && version < MODERN, `${label}: negotiated a 2025-era protocol`, version);
  check(typeof transport.sessionId === "string" && transport.sessionId.length > 0, `${label}: Mcp-Session-Id`, transport.sessionId);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  check(tools.includes("think") && tools.includes("reasoning_linear"), `${label}: tools/list`, tools);

  const t1 = await client.callTool({ name: "think", arguments: { thought: `${label}: first on the connection's session` } });
  const sid = t1.structuredContent?.session_id;
  const uri = `thinkgraph://sessions/${sid}`;
  const updated = [];
  if (v1) client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
  else client.setNotificationHandler("notifications/resources/updated", (n) => updated.push(n.params.uri));
  await client.subscribeResource({ uri });
  const t2 = await client.callTool({ name: "think", arguments: { thought: "second, without session_id" } });
  eq(t2.structuredContent?.session_id, sid, `${label}: the connection keeps its reasoning session`);
  eq(t2.structuredContent?.step, 2, `${label}: second step`);
  await waitFor(() => updated.includes(uri), 5000, `${label}: notifications/resources/updated on the session's stream`);

  const lin = await client.callTool({ name: "reasoning_linear", arguments: { content: `hello from ${label}` } });
  eq(lin.structuredContent?.model, `model-${label}`, `${label}: reasoning_linear through a sampling request`);
  await client.close();
}

async function run(label, f) {
  try {
    await f();
  } catch (err) {
    check(false, `${label}: ${err?.stack ?? err}`);
  }
}

for (const mode of ["pin", "auto"]) {
  let stderr = "";
  await run(`stdio ${mode}`, async () => {
    const transport = new StdioClientTransport({ command: binary, args: ["serve", "--db", `${dir}/eras-stdio-${mode}.db`], env: { ...env, LOG_LEVEL: "warn" }, stderr: "pipe" });
    transport.stderr?.on("data", (d) => (stderr += d.toString()));
    await modern(`stdio ${mode}`, modernClient(`stdio ${mode}`, mode), transport);
  });
  if (failures.length) console.error(`--- stdio server stderr ---\n${stderr}`);
  for (const [name, url] of [["http", httpURL], ["stateless", statelessURL]]) {
    const label = `${name} ${mode}`;
    await run(label, () =>
      modern(label, modernClient(label, mode), httpTransport(StreamableHTTPClientTransport, url, token), { url, token, otherToken }));
  }
}

await run("http legacy v2", async () => {
  const c = new Client({ name: "thinkgraph-e2e-eras-legacy-v2", version: "1.0.0" }, { capabilities: { sampling: {} } });
  c.setRequestHandler("sampling/createMessage", sample("http legacy v2"));
  await legacy("http legacy v2", c, httpTransport(StreamableHTTPClientTransport, httpURL, token), false);
});
await run("http v1", async () => {
  const c = new ClientV1({ name: "thinkgraph-e2e-eras-v1", version: "1.0.0" }, { capabilities: { sampling: {} } });
  c.setRequestHandler(CreateMessageRequestSchema, sample("http v1"));
  await legacy("http v1", c, httpTransport(HTTPV1, httpURL, token), true);
});

console.log(`${checkCount() - failures.length}/${checkCount()} checks passed`);
process.exit(failures.length ? 1 : 0);
