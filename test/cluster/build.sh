#!/usr/bin/env bash
# Builds the control plane of the cluster tier from the pinned Go modules under test/cluster/bin
# (etcd, kube-apiserver, kube-controller-manager, the training operator, the JobSet controller,
# the Kubeflow Trainer controller and Kueue), or reuses them from a cache folder outside the
# repository keyed by a hash of the module files and the Go version. Next to the binaries it keeps
# the CRDs the Trainer needs from the same pinned modules (crds/): JobSet's and the coscheduling
# PodGroup; and Kueue's CRDs and webhook configurations (kueue-manifests/), which the tier
# applies once it has pointed them at the Kueue it starts.
# Prints the folder that holds them on its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/cluster"
modules=(etcd kube-apiserver kube-controller-manager training-operator jobset trainer kueue)

# What to build in each module: a small main of its own (.), or a Go `tool` of the module.
declare -A targets=(
  [training-operator]=github.com/kubeflow/training-operator/cmd/training-operator.v1
  [jobset]=sigs.k8s.io/jobset
  [trainer]=github.com/kubeflow/trainer/v2/cmd/trainer-controller-manager
  [kueue]=sigs.k8s.io/kueue/cmd/kueue
)

# The API server reports the version its build stamps (k8s.io/component-base/version, set by
# Kubernetes' own build scripts); built from the module it would be v0.0.0-master+$Format:%H$,
# which Kueue cannot parse at start. Stamped with the pinned k8s.io/kubernetes version.
kubernetes_version="$(cd "$here/bin/kube-apiserver" && go list -mod=readonly -m -f '{{.Version}}' k8s.io/kubernetes)"
kubernetes_minor="$(echo "$kubernetes_version" | cut -d. -f2)"
declare -A ldflags=(
  [kube-apiserver]="-X k8s.io/component-base/version.gitVersion=$kubernetes_version -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$kubernetes_minor -X k8s.io/component-base/version.gitTreeState=clean"
)

# Each binary is cached under a hash of its own module files, its link flags and the Go version,
# so a change to one pin rebuilds that binary only; the run's folder links to them and holds the CRDs.
module_key() { { go version; [[ -z "${ldflags[$1]:-}" ]] || echo "${ldflags[$1]}"; cat "$here/bin/$1"/go.mod "$here/bin/$1"/go.sum; cat "$here/bin/$1"/*.go 2>/dev/null || true; } | sha256sum | cut -c1-16; }
key="$(for m in "${modules[@]}"; do module_key "$m"; done | sha256sum | cut -c1-16)"
out="$cache_root/$key"
mkdir -p "$out" "$cache_root/modules"

for m in "${modules[@]}"; do
  binary="$cache_root/modules/$m-$(module_key "$m")"
  if [[ -x "$binary" ]]; then
    echo "build: $m reused from the cache" >&2
  else
    started=$SECONDS
    (cd "$here/bin/$m" && nice -n 10 go build -mod=readonly -buildvcs=false -trimpath -ldflags "${ldflags[$m]:-}" -o "$binary.partial" "${targets[$m]:-.}")
    mv "$binary.partial" "$binary"
    echo "build: $m built in $((SECONDS - started)) s" >&2
  fi
  ln -sfn "$binary" "$out/$m"
done

# The CRDs of the pinned modules, the way the Trainer's own Makefile collects them for its
# integration tests (jobset-operator-crd, scheduler-plugins-crd): JobSet's from the JobSet module,
# the coscheduling PodGroup from the scheduler-plugins version the Trainer module requires.
if [[ ! -f "$out/crds/done" ]]; then
  mkdir -p "$out/crds"
  module_dir() { (cd "$here/bin/$1" && go list -mod=readonly -m -f '{{.Dir}}' "$2"); }
  cp "$(module_dir jobset sigs.k8s.io/jobset)"/config/components/crd/bases/*.yaml "$out/crds/"
  cp "$(module_dir trainer sigs.k8s.io/scheduler-plugins)/manifests/coscheduling/crd.yaml" "$out/crds/scheduler-plugins-podgroups.yaml"
  chmod u+w "$out"/crds/*.yaml
  touch "$out/crds/done"
fi
# Kueue's CRDs and its webhook configurations as its module ships them (config/components), in a
# folder of their own: they need the Kueue webhook server (five CRDs convert between v1beta1 and
# v1beta2 through it), so the tier applies them only when it has filled in where it listens, and
# with v1beta1 unserved (kueue.js); the files here stay as the module has them.
if [[ ! -f "$out/kueue-manifests/done" ]]; then
  mkdir -p "$out/kueue-manifests"
  kueue_dir="$(cd "$here/bin/kueue" && go list -mod=readonly -m -f '{{.Dir}}' sigs.k8s.io/kueue)"
  cp "$kueue_dir"/config/components/crd/bases/*.yaml "$out/kueue-manifests/"
  # The conversion patches its kustomization applies (not every file of patches/ is listed).
  for patch in $(sed -n 's|^- path: \(patches/webhook_in_.*\.yaml\)$|\1|p' "$kueue_dir/config/components/crd/kustomization.yaml"); do
    cp "$kueue_dir/config/components/crd/$patch" "$out/kueue-manifests/"
  done
  cp "$kueue_dir/config/components/webhook/manifests.yaml" "$out/kueue-manifests/webhooks.yaml"
  chmod u+w "$out"/kueue-manifests/*.yaml
  touch "$out/kueue-manifests/done"
fi
echo "$out"
