#!/usr/bin/env bash
# Load and fault tests of thinkgraph over HTTP, on loopback only, bounded in
# time. Each scenario starts its own servers and stops them at the end.
#
#   scripts/loadtest.sh sqlite        1 server on SQLite, 32 clients, 60 s
#   scripts/loadtest.sh replicas      2 replicas on one PostgreSQL, 32 clients, 60 s
#   scripts/loadtest.sh kill-replica  2 replicas; one is killed (SIGKILL) after 10 s; clients fail over
#   scripts/loadtest.sh restart-pg    2 replicas; PostgreSQL restarts after 10 s
#   scripts/loadtest.sh floor         the go-sdk floor (bench/floor -http): the SDK's stateless
#                                     streamable HTTP with the four tools answered in memory,
#                                     small constant-size answers; same clients and mix
#   scripts/loadtest.sh floor-path    the same, but show_current_path answers the whole path
#                                     as thinkgraph does (the workload's cost without a database)
#   scripts/loadtest.sh all           sqlite, replicas, kill-replica, restart-pg
#
# DURATION (default 60s) and CLIENTS (32) override the defaults; CALLS=N
# stops the sqlite, replicas and floor scenarios after N calls (the same work for
# comparing the servers' CPU time). Results are
# printed and written as JSON to bench/results/load-<scenario>.json.
# PROFILE=DIR also writes CPU profiles there: the load generator's
# (loadgen.pprof) and, for the sqlite and replicas scenarios, each server's
# over the middle of the run (server-<name>.pprof); read them with
# `go tool pprof -top -cum FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-60s}
CLIENTS=${CLIENTS:-32}
CALLS=${CALLS:-0}
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432/thinkgraph_load?sslmode=disable}
OUT=bench/results
PROFILE=${PROFILE:-}
mkdir -p "$OUT"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

go build -o "$work/thinkgraph" ./cmd/thinkgraph
go build -o "$work/loadtest" ./cmd/loadtest
go build -o "$work/floor" ./bench/floor

pg_cluster() { echo "$(ls /etc/postgresql | head -1) main"; }
ensure_pg() {
	pg_isready -h 127.0.0.1 -p 5432 -q || pg_ctlcluster --skip-systemctl-redirect $(pg_cluster) start
	psql -h 127.0.0.1 -U postgres -d test -tAc "SELECT 1 FROM pg_database WHERE datname='thinkgraph_load'" | grep -q 1 ||
		psql -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE thinkgraph_load" >/dev/null
}

# start NAME PORT [env...]: a server on 127.0.0.1:PORT; waits until /readyz answers.
# With PROFILE, it serves its profiles on 127.0.0.1:PORT+1000.
start() {
	local name=$1 port=$2; shift 2
	local pprof=()
	[ -n "$PROFILE" ] && pprof=(THINKGRAPH_PPROF_ADDR="127.0.0.1:$((port + 1000))")
	env "$@" "${pprof[@]}" LOG_LEVEL=warn "$work/thinkgraph" serve --http "127.0.0.1:$port" --stateless 2>"$work/$name.log" &
	pids+=($!)
	eval "pid_$name=$!"
	wait_ready "$name" "$port"
}

# start_floor NAME PORT [flags...]: the go-sdk HTTP floor on 127.0.0.1:PORT.
# With PROFILE, it writes its CPU profile (whole run) to
# $PROFILE/server-floor.pprof when it is stopped.
start_floor() {
	local name=$1 port=$2; shift 2
	local prof=()
	[ -n "$PROFILE" ] && { mkdir -p "$PROFILE"; prof=(-cpuprofile "$PROFILE/server-floor.pprof"); }
	"$work/floor" -http "127.0.0.1:$port" "${prof[@]}" "$@" 2>"$work/$name.log" &
	pids+=($!)
	eval "pid_$name=$!"
	wait_ready "$name" "$port"
}

wait_ready() {
	local name=$1 port=$2
	for _ in $(seq 1 100); do
		curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "server $name did not become ready:"; cat "$work/$name.log"; exit 1
}

# profile_servers PORT...: with PROFILE, fetches each server's CPU profile
# over the middle half of the run, in the background.
profile_servers() {
	[ -n "$PROFILE" ] || return 0
	mkdir -p "$PROFILE"
	local secs
	case $DURATION in
	*m) secs=$((${DURATION%m} * 60)) ;;
	*) secs=${DURATION%s} ;;
	esac
	for port in "$@"; do
		(sleep $((secs / 4)); curl -fs -o "$PROFILE/server-$port.pprof" "http://127.0.0.1:$((port + 1000))/debug/pprof/profile?seconds=$((secs / 2))") &
	done
}

# cpu_seconds PID: user+system CPU time the process has used so far.
cpu_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# pg_cpu_seconds: CPU time PostgreSQL has used so far (all its processes,
# counting backends that have exited), for the CPU it spends on a run.
pg_cpu_seconds() {
	local pm
	pm=$(pgrep -o -x postgres 2>/dev/null) || { echo 0; return; }
	{
		awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pm/stat"
		for p in $(pgrep -P "$pm"); do awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null; done
	} | awk -v hz="$(getconf CLK_TCK)" '{ s += $1 } END { printf "%.2f", s / hz }'
}

# report_cpu NAME...: prints each server's CPU time and the machine's load,
# so that figures taken on a busy machine can be told apart.
report_cpu() {
	for name in "$@"; do
		local pid
		eval "pid=\$pid_$name"
		echo "server $name CPU: $(cpu_seconds "$pid") s"
	done
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
}

scenario() {
	local s=$1
	echo "== $s (clients=$CLIENTS duration=$DURATION)"
	local lgprof=()
	if [ -n "$PROFILE" ]; then mkdir -p "$PROFILE"; lgprof=(-cpuprofile "$PROFILE/loadgen.pprof"); fi
	case $s in
	sqlite)
		start a 18181 DATABASE_PATH="$work/load.db"
		profile_servers 18181
		"$work/loadtest" "${lgprof[@]}" -targets http://127.0.0.1:18181/mcp -calls "$CALLS" -clients "$CLIENTS" -duration "$DURATION" -db "$work/load.db" -json "$OUT/load-sqlite.json"
		report_cpu a
		;;
	replicas)
		ensure_pg
		start a 18181 DATABASE_URL="$PGURL"
		start b 18182 DATABASE_URL="$PGURL"
		profile_servers 18181 18182
		local pg0
		pg0=$(pg_cpu_seconds)
		"$work/loadtest" "${lgprof[@]}" -targets http://127.0.0.1:18181/mcp,http://127.0.0.1:18182/mcp -calls "$CALLS" -clients "$CLIENTS" -duration "$DURATION" -db "$PGURL" -json "$OUT/load-replicas.json"
		echo "PostgreSQL CPU: $(awk -v a="$pg0" -v b="$(pg_cpu_seconds)" 'BEGIN { printf "%.2f", b - a }') s (all of its processes, including any other clients')"
		report_cpu a b
		;;
	floor | floor-path)
		local full=()
		[ "$s" = floor-path ] && full=(-full-path)
		start_floor a 18181 "${full[@]}"
		"$work/loadtest" "${lgprof[@]}" -targets http://127.0.0.1:18181/mcp -calls "$CALLS" -clients "$CLIENTS" -duration "$DURATION" -json "$OUT/load-$s.json"
		report_cpu a
		;;
	kill-replica)
		ensure_pg
		start a 18181 DATABASE_URL="$PGURL"
		start b 18182 DATABASE_URL="$PGURL"
		(sleep 10; echo "-- killing replica b (SIGKILL)"; kill -9 "$pid_b") &
		# Lost acknowledged writes fail the run; a call retried after the kill may
		# be stored twice (its first attempt may have committed), so duplicates are reported, not failed.
		"$work/loadtest" -targets http://127.0.0.1:18182/mcp,http://127.0.0.1:18181/mcp -failover -clients "$CLIENTS" -duration "$DURATION" -db "$PGURL" -json "$OUT/load-kill-replica.json" || {
			grep -q '"lost": 0' "$OUT/load-kill-replica.json" || exit 1
		}
		;;
	restart-pg)
		ensure_pg
		start a 18181 DATABASE_URL="$PGURL"
		start b 18182 DATABASE_URL="$PGURL"
		(sleep 10; echo "-- restarting PostgreSQL"; pg_ctlcluster --skip-systemctl-redirect $(pg_cluster) restart) &
		"$work/loadtest" -targets http://127.0.0.1:18181/mcp,http://127.0.0.1:18182/mcp -clients "$CLIENTS" -duration "$DURATION" -db "$PGURL" -json "$OUT/load-restart-pg.json" || {
			grep -q '"lost": 0' "$OUT/load-restart-pg.json" || exit 1
		}
		;;
	*) echo "unknown scenario $s"; exit 2 ;;
	esac
	for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	pids=()
}

if [ "${1:-all}" = all ]; then
	for s in sqlite replicas kill-replica restart-pg; do scenario $s; done
else
	scenario "$1"
fi
