#!/usr/bin/env bash
# Scale curves: branch-thinking's add-thought (auto-eval on), evaluate,
# findSimilar, findContradictions and export on sessions of 1k, 10k and 100k
# thoughts (50 branches, SQLite, offline embedder), and think into a store of
# 1,000 sessions. Writes bench/results/scale.{txt,md,svg}. About 10 minutes
# on 2 cores; SIZES overrides the sizes (e.g. SIZES=1000,10000).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-1000,10000,100000}
out=bench/results
mkdir -p "$out"
THINKGRAPH_BENCH_SIZES=$SIZES go test -run '^$' -timeout 60m -benchtime 20x \
	-bench 'BranchThinking(AddThought|Evaluate|FindSimilar|FindContradictions|Export)$|ThinkManySessions' \
	./reasoning/branching/ | tee "$out/scale.txt"
go run ./bench/scaleplot -in "$out/scale.txt" -svg "$out/scale.svg" -md "$out/scale.md"
