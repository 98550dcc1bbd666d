#!/usr/bin/env bash
# Builds etcd, kube-apiserver and the training operator from the pinned Go
# modules under test/cluster/bin, or reuses them from a cache folder outside the
# repository keyed by a hash of the module files and the Go version.
# Prints the folder that holds the three binaries on its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/cluster"
modules=(etcd kube-apiserver training-operator)

key="$( { go version; for m in "${modules[@]}"; do cat "$here/bin/$m"/go.mod "$here/bin/$m"/go.sum; cat "$here/bin/$m"/*.go 2>/dev/null || true; done; } | sha256sum | cut -c1-16)"
out="$cache_root/$key"
mkdir -p "$out"

for m in "${modules[@]}"; do
  if [[ -x "$out/$m" ]]; then
    echo "build: $m reused from the cache" >&2
    continue
  fi
  started=$SECONDS
  # The operator is declared as a Go tool of its module; the others are tiny mains.
  target=.
  if [[ "$m" == training-operator ]]; then
    target=github.com/kubeflow/training-operator/cmd/training-operator.v1
  fi
  (cd "$here/bin/$m" && nice -n 10 go build -mod=readonly -buildvcs=false -trimpath -o "$out/$m.partial" "$target")
  mv "$out/$m.partial" "$out/$m"
  echo "build: $m built in $((SECONDS - started)) s" >&2
done
echo "$out"
