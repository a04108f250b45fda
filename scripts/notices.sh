#!/usr/bin/env bash
# Prints the licences a thinkgraph binary carries: the Go standard library's
# and that of every module linked into cmd/thinkgraph (from the module
# cache, offline), to ship beside the binary as THIRD_PARTY_NOTICES.txt.
# scripts/dist.sh and .goreleaser.yaml's before hook run it. A module without
# a licence file fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "thinkgraph links the Go standard library and the modules below; their licences follow."
echo "The embedded lexicon and word vectors come with LICENSE-WordNet and LICENSE-GloVe."
echo
echo "==== Go (the standard library)"
cat "$(go env GOROOT)/LICENSE"
go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}{{end}}' ./cmd/thinkgraph | sort -u |
	while read -r mod dir; do
		found=0
		for f in "$dir"/*; do
			case $(basename "$f" | tr '[:upper:]' '[:lower:]') in licence* | license* | copying* | notice*)
				echo
				echo "==== $mod: $(basename "$f")"
				cat "$f"
				found=1
				;;
			esac
		done
		if [ $found = 0 ]; then
			echo "notices.sh: module $mod has no licence file in $dir" >&2
			exit 1
		fi
	done
