#!/usr/bin/env bash
# Builds every release artifact of thinkgraph into dist/, on this machine, in
# one command, and checks what it built. Nothing is published.
#
#   scripts/dist.sh [--platforms LIST] [--no-check]
#
#   --platforms LIST  comma-separated GOOS/GOARCH pairs (default: all six,
#                     linux darwin windows × amd64 arm64)
#   --no-check        build only; skip the checks below
#
# Environment: VERSION (default: server.json's version), COMMIT and DATE
# (default: the checked-out commit and its commit time), PODMAN (the podman
# command, default "podman"; e.g. "podman --runtime runc --cgroup-manager=cgroupfs").
#
# Needs Go, Node/npm and podman (Debian: apt-get install podman). Offline once
# the Go modules are downloaded (go mod download) and packaging/node_modules
# is installed (npm ci --prefix packaging, which this does when it is missing).
#
# What it writes:
#   dist/bin/thinkgraph-OS-ARCH[.exe]   release binaries: CGO_ENABLED=0, -trimpath,
#                                       -ldflags "-s -w" and version, commit, date
#   dist/npm/*.tgz                      npm pack tarballs: @thinkgraph/server (bin
#                                       "thinkgraph", mcpName) and one package per
#                                       platform, its optional dependencies
#   dist/thinkgraph.mcpb                MCP bundle: manifest.json, the launcher, the
#                                       binary of each platform built
#   dist/thinkgraph.oci.tar             OCI image archive (linux platforms built),
#                                       FROM scratch, user 65532, volume /data
#   dist/server.json                    the registry entry for this version, with the
#                                       bundle's SHA-256
#   dist/THIRD_PARTY_NOTICES.txt        licences of the Go modules linked in
#   dist/SHA256SUMS
#
# Checks (unless --no-check): the host's binary prints its version and
# commit; the linux/amd64 binary is at most 70 MB; mcpb validates the
# manifest; the npm tarballs install into an empty folder with no registry and
# `npx thinkgraph serve` answers MCP initialize, lists the tools and writes a
# thought (scripts/mcp-check.mjs); so does the bundle, unpacked and started as
# its manifest says with its settings left unfilled; and so does the image,
# loaded from the archive, under `podman run -i --rm --network none IMAGE serve`.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
root=$PWD

all_platforms="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
platforms=$all_platforms
check=1
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "dist.sh: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--platforms) [ $# -ge 2 ] || die "--platforms needs a list such as linux/amd64,darwin/arm64"; platforms=${2//,/ }; shift 2 ;;
	--platforms=*) platforms=${1#*=}; platforms=${platforms//,/ }; shift ;;
	--no-check) check=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument $1" ;;
	esac
done
for p in $platforms; do
	case " $all_platforms " in *" $p "*) ;; *) die "--platforms: $p is not one of: $all_platforms" ;; esac
done
[ -n "$platforms" ] || die "--platforms: the list is empty"
for tool in go node npm; do
	command -v $tool >/dev/null || die "$tool is not on PATH: it is needed to build"
done
read -r -a podman <<<"${PODMAN:-podman}"
if ! command -v "${podman[0]}" >/dev/null; then
	die "${podman[0]} is not on PATH: it builds the container image (Debian: apt-get install podman)"
fi

# Node's names for a Go platform: npm's os and cpu fields, MCP bundles.
node_os() { case $1 in windows) echo win32 ;; *) echo "$1" ;; esac; }
node_cpu() { case $1 in amd64) echo x64 ;; *) echo "$1" ;; esac; }
exe() { if [ "$1" = windows ]; then echo .exe; fi; }
size() { printf '%-44s %6.1f MB%s\n' "$1" "$(stat -c %s "$1")e-6" "${2:+  ($2)}"; }
json() { node -p "const v = require('$root/server.json')$1; if (v === undefined) throw new Error('server.json has no $1'); v"; }

version=${VERSION:-$(json .version)}
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]] || die "VERSION $version is not a semantic version (1.2.3 or 1.2.3-rc.1)"
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
date=${DATE:-$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)}
epoch=$(date -d "$date" +%s)
name=$(json .name)
npm_name=$(json '.packages.find((p) => p.registryType === "npm").identifier')
image=localhost/thinkgraph:$version
echo "== thinkgraph $version ($commit, $date) for: $platforms"

rm -rf dist
mkdir -p dist/bin dist/npm

echo "== binaries"
ldflags="-s -w -X main.version=v$version -X main.commit=$commit -X main.date=$date"
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	out=dist/bin/thinkgraph-$os-$arch$(exe "$os")
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$out" ./cmd/thinkgraph
	size "$out"
done

echo "== notices"
scripts/notices.sh >dist/THIRD_PARTY_NOTICES.txt
notices=(semantic/lexicon/LICENSE-GloVe semantic/lexicon/LICENSE-WordNet dist/THIRD_PARTY_NOTICES.txt)

echo "== npm packages"
stage=dist/stage/npm
repo_url=$(json .repository.url)
optional=()
for p in $all_platforms; do
	os=${p%/*} arch=${p#*/}
	key=$(node_os "$os")-$(node_cpu "$arch")
	optional+=("\"$npm_name-$key\": \"$version\"")
	[[ " $platforms " == *" $p "* ]] || continue
	dir=$stage/server-$key
	mkdir -p "$dir/bin"
	cp "dist/bin/thinkgraph-$os-$arch$(exe "$os")" "$dir/bin/thinkgraph$(exe "$os")"
	cp "${notices[@]}" "$dir/"
	cat >"$dir/package.json" <<-EOF
		{
		  "name": "$npm_name-$key",
		  "version": "$version",
		  "description": "The thinkgraph binary for $key; installed by $npm_name",
		  "repository": { "type": "git", "url": "$repo_url" },
		  "os": ["$(node_os "$os")"],
		  "cpu": ["$(node_cpu "$arch")"],
		  "preferUnplugged": true
		}
	EOF
	printf '# %s-%s\n\nThe thinkgraph binary for %s. Install `%s`, which depends on it.\n' "$npm_name" "$key" "$key" "$npm_name" >"$dir/README.md"
done
dir=$stage/server
mkdir -p "$dir/bin"
cp packaging/launch.js "$dir/bin/thinkgraph.js"
cp packaging/npm/README.md "$dir/README.md"
deps=$(printf ',\n    %s' "${optional[@]}")
cat >"$dir/package.json" <<EOF
{
  "name": "$npm_name",
  "version": "$version",
  "description": "$(json .description)",
  "mcpName": "$name",
  "repository": { "type": "git", "url": "$repo_url" },
  "keywords": ["mcp", "mcp-server", "reasoning", "sequential-thinking"],
  "bin": { "thinkgraph": "bin/thinkgraph.js" },
  "files": ["bin/thinkgraph.js"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {${deps#,}
  }
}
EOF
for d in "$stage"/*; do
	(cd "$d" && npm pack --silent --pack-destination "$root/dist/npm" >/dev/null)
done
for f in dist/npm/*.tgz; do size "$f"; done

echo "== MCP bundle"
mcpb=packaging/node_modules/.bin/mcpb
[ -x $mcpb ] || npm ci --prefix packaging --no-audit --no-fund >/dev/null
stage=dist/stage/mcpb
mkdir -p $stage/server
node -e '
	const fs = require("fs");
	const m = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
	m.version = process.argv[2];
	fs.writeFileSync(process.argv[3], JSON.stringify(m, null, 2) + "\n");
' packaging/mcpb/manifest.json "$version" $stage/manifest.json
cp packaging/launch.js $stage/server/launch.js
cp "${notices[@]}" $stage/
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	key=$(node_os "$os")-$(node_cpu "$arch")
	mkdir -p "$stage/server/$key"
	cp "dist/bin/thinkgraph-$os-$arch$(exe "$os")" "$stage/server/$key/thinkgraph$(exe "$os")"
done
$mcpb validate $stage/manifest.json
$mcpb pack $stage dist/thinkgraph.mcpb >dist/stage/mcpb-pack.log || { cat dist/stage/mcpb-pack.log >&2; die "mcpb pack failed"; }
size dist/thinkgraph.mcpb

echo "== OCI image"
linux=()
for p in $platforms; do [[ $p == linux/* ]] && linux+=("$p"); done
if [ ${#linux[@]} -eq 0 ]; then
	echo "no linux platform built: no image"
else
	# The context has the paths of the repository, as goreleaser's has.
	ctx=dist/stage/oci
	for f in packaging/oci/data/README.txt "${notices[@]}"; do
		mkdir -p "$ctx/$(dirname "$f")"
		cp "$f" "$ctx/$f"
	done
	for p in "${linux[@]}"; do
		mkdir -p "$ctx/$p"
		cp "dist/bin/thinkgraph-${p/\//-}" "$ctx/$p/thinkgraph"
	done
	"${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
	"${podman[@]}" manifest rm "$image" >/dev/null 2>&1 || true
	labels=(--label "org.opencontainers.image.version=$version" --label "org.opencontainers.image.revision=$commit"
		--label "org.opencontainers.image.created=$date")
	if [ ${#linux[@]} -eq 1 ]; then
		"${podman[@]}" build -q --layers=false --platform "${linux[0]}" --timestamp "$epoch" "${labels[@]}" \
			-f packaging/oci/Containerfile -t "$image" $ctx >/dev/null
		"${podman[@]}" save -q --format oci-archive -o dist/thinkgraph.oci.tar "$image"
	else
		"${podman[@]}" manifest create "$image" >/dev/null
		for p in "${linux[@]}"; do
			"${podman[@]}" build -q --layers=false --platform "$p" --timestamp "$epoch" "${labels[@]}" \
				-f packaging/oci/Containerfile --manifest "$image" $ctx >/dev/null
		done
		"${podman[@]}" manifest push -q --all "$image" oci-archive:dist/thinkgraph.oci.tar:"$image" >/dev/null
	fi
	size dist/thinkgraph.oci.tar "${linux[*]}"
fi

echo "== server.json"
node -e '
	const fs = require("fs");
	const [src, dst, version, sha] = process.argv.slice(1);
	const s = JSON.parse(fs.readFileSync(src, "utf8"));
	// Each package names the version (its version field, the image tag, the
	// bundle'"'"'s release URL) as the entry does: all move to this one.
	for (const p of s.packages) {
		p.identifier = p.identifier.split(s.version).join(version);
		if (p.version !== undefined) p.version = version;
		if (p.registryType === "mcpb") p.fileSha256 = sha;
	}
	s.version = version;
	fs.writeFileSync(dst, JSON.stringify(s, null, 2) + "\n");
' server.json dist/server.json "$version" "$(sha256sum dist/thinkgraph.mcpb | cut -d' ' -f1)"

(cd dist && find . -maxdepth 2 -type f ! -path './stage/*' ! -name SHA256SUMS | sort | sed 's|^\./||' | xargs sha256sum >SHA256SUMS)
rm -rf dist/stage

[ $check = 1 ] || { echo "== built (not checked)"; exit 0; }

echo "== check: the binary names its version and commit"
host=$(go env GOOS)/$(go env GOARCH)
if [[ " $platforms " == *" $host "* ]]; then
	out=$("dist/bin/thinkgraph-${host/\//-}$(exe "$(go env GOOS)")" version)
	[[ $out == *"thinkgraph v$version"* && $out == *"revision $commit"* && $out == *"time     $date"* ]] ||
		die "thinkgraph version printed:
$out
want v$version, revision $commit and time $date"
	echo "$out" | head -3
else
	echo "the host ($host) was not built: skipped"
fi

echo "== check: the size budget (issue #31): linux/amd64 at most 70 MB"
if [[ " $platforms " == *" linux/amd64 "* ]]; then
	bytes=$(stat -c %s dist/bin/thinkgraph-linux-amd64)
	[ "$bytes" -le 70000000 ] || die "dist/bin/thinkgraph-linux-amd64 is $bytes bytes, over the 70 MB budget; see what is large with
  go build -trimpath -o /tmp/tg ./cmd/thinkgraph && go tool nm -size -sort size /tmp/tg | head -40"
	echo "dist/bin/thinkgraph-linux-amd64: $bytes bytes"
else
	echo "linux/amd64 was not built: skipped"
fi

echo "== check: npm tarballs into an empty folder, npx thinkgraph serve"
hostkey=$(node -p 'process.platform + "-" + process.arch')
tgz=${npm_name#@}
tgz=dist/npm/${tgz//\//-} # npm pack's name: @scope/name-1.2.3 → scope-name-1.2.3.tgz
main=$tgz-$version.tgz mine=$tgz-$hostkey-$version.tgz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -f "$mine" ]; then
	mkdir "$tmp/npm"
	# --offline: nothing comes from a registry; the other platforms' optional
	# packages are not there and are skipped, as npm skips them on a platform
	# they do not fit.
	(cd "$tmp/npm" && npm install --offline --no-audit --no-fund --loglevel=error "$root/$main" "$root/$mine" >/dev/null)
	(cd "$tmp/npm" && DATABASE_PATH="$tmp/npm.db" npm_config_offline=true \
		node "$root/scripts/mcp-check.mjs" --version "v$version" -- npx thinkgraph serve)
else
	echo "no tarball for this host ($hostkey): skipped"
fi

echo "== check: the bundle, unpacked, starts as its manifest says"
if [[ " $platforms " == *" $host "* ]]; then
	$mcpb unpack dist/thinkgraph.mcpb "$tmp/mcpb" >/dev/null
	# A host that fills no setting: the launcher must drop the placeholders,
	# else "${user_config.openai_api_key}" would read as a key and the
	# reasoning tools would be listed (more tools than the npm run above).
	out=$(DATABASE_PATH="$tmp/mcpb.db" OPENAI_API_KEY='${user_config.openai_api_key}' \
		ANTHROPIC_API_KEY='${user_config.anthropic_api_key}' LANGBASE_API_KEY='${user_config.langbase_api_key}' \
		node scripts/mcp-check.mjs --version "v$version" -- node "$tmp/mcpb/server/launch.js" serve)
	echo "$out"
	want=$(DATABASE_PATH="$tmp/plain.db" node scripts/mcp-check.mjs -- "dist/bin/thinkgraph-${host/\//-}$(exe "$(go env GOOS)")" serve)
	[ "${out##*protocol}" = "${want##*protocol}" ] || die "the bundle lists other tools than the plain binary: $want"
else
	echo "the bundle has no binary for this host ($hostkey): skipped"
fi

echo "== check: the image answers initialize with no network"
if [[ " ${linux[*]} " == *" $host "* ]]; then
	"${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
	"${podman[@]}" manifest rm "$image" >/dev/null 2>&1 || true
	loaded=$("${podman[@]}" load -q -i dist/thinkgraph.oci.tar | sed -n "s/^Loaded image[(s)]*: //p" | head -1)
	[ -n "$loaded" ] || die "podman load named no image"
	name_label=$("${podman[@]}" image inspect --format '{{index .Labels "io.modelcontextprotocol.server.name"}}' "$loaded")
	user=$("${podman[@]}" image inspect --format '{{.Config.User}}' "$loaded")
	[ "$name_label" = "$name" ] || die "the image's io.modelcontextprotocol.server.name is '$name_label', want $name"
	[[ $user != "" && $user != 0* && $user != root* ]] || die "the image runs as '$user', want a non-root user"
	echo "$loaded: label $name_label, user $user"
	node scripts/mcp-check.mjs --version "v$version" -- "${podman[@]}" run -i --rm --network none "$loaded" serve
else
	echo "the host ($host) has no image: skipped"
fi
echo "== dist/ built and checked"
