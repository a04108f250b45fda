#!/usr/bin/env node
// Starts the thinkgraph binary built for this platform and hands it the
// arguments, the standard streams and the exit status: `npx thinkgraph serve`
// is then `thinkgraph serve`. It is the bin of the npm package, whose binaries
// come in one optional dependency per platform, and the entry point of the
// MCP bundle, whose binaries sit next to it in <platform>-<arch>/.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

// The platforms a release is built for, as Node names them; scripts/dist.sh
// and .goreleaser.yaml build the same six.
const platforms = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];

function fail(message) {
  process.stderr.write(`thinkgraph: ${message}\n`);
  process.exit(1);
}

function binaryPath() {
  const key = `${process.platform}-${process.arch}`;
  const exe = process.platform === "win32" ? "thinkgraph.exe" : "thinkgraph";
  if (!platforms.includes(key)) {
    fail(`no thinkgraph binary is built for ${key} (built for ${platforms.join(", ")}); ` +
      "build it from source with Go: go install github.com/thinkgraph/thinkgraph/cmd/thinkgraph@latest");
  }
  const bundled = path.join(__dirname, key, exe);
  if (fs.existsSync(bundled)) {
    return bundled;
  }
  try {
    return require.resolve(`@thinkgraph/server-${key}/bin/${exe}`);
  } catch {
    fail(`the package @thinkgraph/server-${key}, which holds the binary for this platform, is not installed: ` +
      "npm installs it as an optional dependency of @thinkgraph/server; install again without --omit=optional or --no-optional");
  }
}

// An MCP bundle host fills ${user_config.KEY} in the environment it starts
// this with. thinkgraph reads an empty variable as unset; a placeholder a
// host left unfilled must read as unset too, not as an API key.
const env = { ...process.env };
for (const [k, v] of Object.entries(env)) {
  if (/^\$\{user_config\.[A-Za-z0-9_]+\}$/.test(v)) {
    delete env[k];
  }
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", env, windowsHide: true });
child.on("error", (err) => fail(`cannot start ${child.spawnfile}: ${err.message}`));
// The client stops the server by closing its stdin or by a signal: pass a
// signal on, then leave as the child did.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
