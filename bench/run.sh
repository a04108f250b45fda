#!/usr/bin/env bash
# Benchmarks thinkgraph against @modelcontextprotocol/server-sequential-thinking
# through the same official TypeScript SDK client, in one run.
#
#   bench/run.sh                    # default run: ~20 cold starts, 2,000-call latency, 10,000-call memory
#   bench/run.sh --calls 100000     # memory over 100,000 calls
#   bench/run.sh --only start,rss   # parts: start, latency, rss
#
# THINKGRAPH_BIN=/path/to/thinkgraph bench/run.sh --commit abc123  uses a prebuilt binary.
#
# Builds thinkgraph from this checkout (as it is, uncommitted changes included), installs the pinned npm packages when
# needed, prints the results and writes them to bench/results/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

bin_dir="$(mktemp -d)"
trap 'rm -rf "$bin_dir"' EXIT
if [ -n "${THINKGRAPH_BIN:-}" ]; then
	# A prebuilt binary (e.g. of another commit); say what it is with --commit.
	cp "$THINKGRAPH_BIN" "$bin_dir/thinkgraph"
else
	echo "== building thinkgraph from $root" >&2
	(cd "$root" && go build -o "$bin_dir/thinkgraph" ./cmd/thinkgraph)
fi

if [ ! -f "$here/node_modules/@modelcontextprotocol/server-sequential-thinking/package.json" ] ||
	[ ! -f "$here/node_modules/@modelcontextprotocol/sdk/package.json" ] ||
	[ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
	echo "== npm ci --prefix bench" >&2
	npm ci --prefix "$here" --no-audit --no-fund >&2
fi

# The go-sdk floor (bench/floor): the official server on the MCP Go SDK, the
# reference for what the SDK itself costs. Always built from this checkout.
echo "== building the go-sdk floor (bench/floor)" >&2
(cd "$root" && go build -o "$bin_dir/floor" ./bench/floor)

echo "== running (progress on stderr, results on stdout and in bench/results/)" >&2
node "$here/bench.mjs" --tg "$bin_dir/thinkgraph" --floor "$bin_dir/floor" --out "$here/results" "$@"
