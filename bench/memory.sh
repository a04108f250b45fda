#!/usr/bin/env bash
# Memory of serving a large session: for each size (default 12,000 and
# 45,000 thoughts) imports a generated session (bench/bigsession) with
# "thinkgraph import", serves it over HTTP and reads every viewer download
# and page and every MCP resource of it one at a time, recording the
# server's RSS before, its peak during and its RSS after each
# (bench/memory). Writes bench/results/memory.md. Linux only; about a
# minute. On a shared machine run it alone: flock /work/test.lock bench/memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-12000,45000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/thinkgraph" ./cmd/thinkgraph
go build -o "$tmp/bigsession" ./bench/bigsession
out=bench/results/memory.md
{
	echo "# Memory of large sessions ($(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d))"
	echo
	echo "\`bench/memory.sh\` (SIZES=$SIZES); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
	go run ./bench/memory -bin "$tmp/thinkgraph" -gen "$tmp/bigsession" -sizes "$SIZES"
} | tee "$out"
