#!/usr/bin/env bash
# What the official OpenAI and Anthropic Go SDKs cost at start and in memory.
#
#   bench/sdk-cost.sh [bench/run.sh options]     default: --only start,rss
#
# Builds thinkgraph from HEAD twice into a temporary worktree: as shipped, and
# with llm/openai.go and llm/anthropic.go replaced by stubs that only say "not
# compiled in" (bench/sdkcost/*.go.txt), so neither SDK is linked. Then runs
# bench/run.sh on each against the official server and the go-sdk floor.
# The stubbed build is a measurement, never shipped: issue 6 asks for the
# official SDKs. Results go to bench/results/sdkcost-{shipped,stubbed}/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
work="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; git -C "$root" worktree prune; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/tree" HEAD >/dev/null
(cd "$work/tree" && go build -o "$work/shipped" ./cmd/thinkgraph)
cp "$here/sdkcost/openai.go.txt" "$work/tree/llm/openai.go"
cp "$here/sdkcost/anthropic.go.txt" "$work/tree/llm/anthropic.go"
(cd "$work/tree" && go build -o "$work/stubbed" ./cmd/thinkgraph)
ls -l "$work/shipped" "$work/stubbed" >&2
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--only start,rss)
commit="$(git -C "$root" rev-parse --short HEAD)"
for v in shipped stubbed; do
	echo "== $v" >&2
	THINKGRAPH_BIN="$work/$v" "$here/run.sh" --commit "$commit ($v)" --out "$here/results/sdkcost-$v" "${args[@]}"
done
