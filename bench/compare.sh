#!/usr/bin/env bash
# Compares the Go micro-benchmarks of the store, the service and the
# analyzers between two commits with benchstat:
#
#   bench/compare.sh OLD [NEW]     (NEW defaults to the working tree)
#   COUNT=10 BENCH='IndexTopK|ThinkWithVector' bench/compare.sh HEAD~5
#
# Each side runs in its own git worktree (the working tree for NEW when it
# is omitted), COUNT times (default 6) so benchstat can judge significance.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/compare.sh OLD [NEW]}
new=${2:-}
COUNT=${COUNT:-6}
BENCH=${BENCH:-'IndexTopK10k|EmbedLexical$|GroupClaims10k|ThinkWithVector|BenchmarkThink$|BenchmarkSequentialThinking$'}
PKGS=${PKGS:-./semantic/ ./semantic/analyze/ ./reasoning/... ./mcpserver/}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; [ -n "$new" ] && git worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

run() { # dir out
	(cd "$1" && go test -run '^$' -bench "$BENCH" -count "$COUNT" $PKGS) | tee "$2"
}
git worktree add --detach "$work/old" "$old" >/dev/null
run "$work/old" "$work/old.txt"
if [ -n "$new" ]; then
	git worktree add --detach "$work/new" "$new" >/dev/null
	run "$work/new" "$work/new.txt"
else
	run . "$work/new.txt"
fi
go run golang.org/x/perf/cmd/benchstat@latest "$work/old.txt" "$work/new.txt"
