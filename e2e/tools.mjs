// End-to-end test of the tool list through the official TypeScript SDK
// client (v1) over stdio: what a client that cannot sample is offered under
// the default settings, under each toolset, and with an LLM provider
// configured.
//
//   node e2e/tools.mjs <thinkgraph-binary> <database-dir> <provider-base-url>
//
// <provider-base-url> is an OpenAI-compatible endpoint the server is pointed
// at; listing tools must not call it. Exits 0 when every check passes;
// otherwise prints every failed check and exits 1.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { check, checkCount, failures } from "./check.mjs";

const [binary, dir, providerURL] = process.argv.slice(2);
if (!binary || !dir || !providerURL) {
  console.error("usage: node tools.mjs <thinkgraph-binary> <database-dir> <provider-base-url>");
  process.exit(2);
}

const toolsets = {
  think: ["think", "clear_context"],
  graph: ["select_path", "backtrack", "show_current_path", "get_unexplored_branches"],
  sequential: ["sequentialthinking"],
  branch: ["branch-thinking"],
  reasoning: ["reasoning_linear", "reasoning_tree", "reasoning_divergent", "reasoning_reflection"],
  lux: ["confer", "traced_reasoning", "biased_reasoning", "planner"],
};
const withoutModel = [...toolsets.think, ...toolsets.graph, ...toolsets.sequential, ...toolsets.branch];
const every = Object.values(toolsets).flat();
const validName = /^[a-zA-Z0-9_-]{1,64}$/;

// No provider from the environment of the test run: each case sets its own.
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(OPENAI_|ANTHROPIC_|LANGBASE_|THINKGRAPH_)/.test(k)),
);

// list spawns "thinkgraph serve" with args and env, lists its tools as a
// client without sampling, and returns their names and the server's stderr.
async function list(label, args, env) {
  const transport = new StdioClientTransport({
    command: binary,
    args: ["serve", "--db", `${dir}/${label}.db`, ...args],
    env: { ...baseEnv, ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d.toString()));
  const client = new Client({ name: `thinkgraph-e2e-tools-${label}`, version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return { names: tools.map((t) => t.name), stderr };
  } finally {
    await client.close();
  }
}

const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

async function main() {
  // Default, no provider: only the tools that can run, and the server says
  // which variables would bring the others.
  let r = await list("default", [], { LOG_LEVEL: "info" });
  check(same(r.names, withoutModel), "default without a provider: the tools that need no model", r.names);
  check(/OPENAI_API_KEY/.test(r.stderr) && /ANTHROPIC_API_KEY/.test(r.stderr) && /LANGBASE_API_KEY/.test(r.stderr),
    "default without a provider: stderr names the provider variables", r.stderr);

  // A provider configured: every tool, each name one every client accepts.
  r = await list("provider", [], { OPENAI_BASE_URL: providerURL, LOG_LEVEL: "warn" });
  check(same(r.names, every), "with a provider: all sixteen tools", r.names);
  for (const n of r.names) check(validName.test(n), `tool name ${n} matches ${validName}`);

  // Each toolset, by flag and by environment variable.
  for (const [name, want] of Object.entries(toolsets)) {
    r = await list(`ts-${name}`, ["--toolsets", name], { OPENAI_BASE_URL: providerURL, LOG_LEVEL: "warn" });
    check(same(r.names, want), `--toolsets ${name}`, r.names);
  }
  r = await list("ts-env", [], { THINKGRAPH_TOOLSETS: "think,reasoning", LOG_LEVEL: "warn" });
  check(same(r.names, toolsets.think), "THINKGRAPH_TOOLSETS=think,reasoning without a provider: think only", r.names);

  // Seed 002's names on request.
  r = await list("seed", ["--toolsets", "reasoning"], { OPENAI_BASE_URL: providerURL, THINKGRAPH_TOOL_NAMES: "seed", LOG_LEVEL: "warn" });
  check(same(r.names, ["reasoning.linear", "reasoning.tree", "reasoning.divergent", "reasoning.reflection"]),
    "THINKGRAPH_TOOL_NAMES=seed", r.names);
}

try {
  await main();
} catch (err) {
  check(false, `${err?.stack ?? err}`);
}
console.log(`${checkCount() - failures.length}/${checkCount()} checks passed`);
process.exit(failures.length ? 1 : 0);
