#!/usr/bin/env bash
# The control-plane tier (npm run test:cluster): builds or reuses etcd, kube-apiserver,
# kube-controller-manager, the Kubeflow training operator, JobSet, the Kubeflow Trainer and Kueue
# from pinned Go modules, starts them in a private network namespace, applies the Kueue queues the
# examples name and every document of dist/ (and the upstream Trainer v2 corpus), and checks what
# the controllers create and that Kueue admits every queued job.
# Exits non-zero on any failure; the last line is `cluster: N passed, M failed`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/test/cluster"
limit_seconds="${CLUSTER_TIMEOUT_SECONDS:-600}"

fail() { echo "cluster: $1" >&2; echo "cluster: 0 passed, 1 failed"; exit 1; }

command -v go >/dev/null || fail "go is not installed; this tier builds its binaries from Go modules"
command -v unshare >/dev/null && command -v ip >/dev/null || fail "unshare (util-linux) and ip (iproute2) are required"
# CLUSTER_DIST: the folder of documents to apply instead of dist/ (e.g. a hand-edited copy).
dist="${CLUSTER_DIST:-$root/dist}"
[[ -d "$dist" ]] || fail "$dist is missing; run npm run synth first"
export CLUSTER_DIST="$(cd "$dist" && pwd)"
[[ -d "$root/upstream/crds/training-operator" ]] || fail "upstream/crds is missing; the pinned CRDs live there"
[[ -d "$root/upstream/examples/upstream-v2" ]] || fail "upstream/examples/upstream-v2 is missing; the Trainer v2 corpus lives there"

started=$SECONDS
bin="$(bash "$here/build.sh" | tail -n 1)" || fail "building the binaries failed"
echo "cluster: binaries ready in $((SECONDS - started)) s ($bin)" >&2

work="$(mktemp -d "${TMPDIR:-/tmp}/cdk8s-kubeflow-cluster.XXXXXX")"
remove_work() {
  [[ -n "${CLUSTER_KEEP_WORK:-}" ]] || rm -rf "$work"
}
trap remove_work EXIT

run_started=$SECONDS
# --net: nothing the control plane opens is reachable from outside this namespace.
# --mount: the operator and the Trainer read their webhook certs from a fixed /tmp path; a
# private tmpfs there keeps them off the machine and apart from any other run.
summary='^cluster: [0-9]+ passed, [0-9]+ failed$'
set +e
timeout --kill-after=20 "$limit_seconds" \
  unshare --net --mount --propagation private --kill-child=TERM \
  bash -c 'mkdir -p /tmp/k8s-webhook-server/serving-certs &&
           mount -t tmpfs -o size=1m tmpfs /tmp/k8s-webhook-server/serving-certs &&
           exec bash "$1/control-plane.sh" "$2" "$3" "$4"' _ "$here" "$bin" "$work" "$root" \
  | tee "$work/stdout" | grep --line-buffered -Ev "$summary"
status=${PIPESTATUS[0]}
set -e
((status == 124)) && echo "cluster: timed out after ${limit_seconds} s" >&2
echo "cluster: control plane run took $((SECONDS - run_started)) s (with build $((SECONDS - started)) s)" >&2
if ((status != 0)); then
  for log in "$work"/*.log; do
    [[ -f "$log" ]] || continue
    echo "---- last lines of $(basename "$log")" >&2
    tail -n 15 "$log" >&2
  done
fi
[[ -z "${CLUSTER_KEEP_WORK:-}" ]] || echo "cluster: logs kept in $work" >&2
# The summary comes last; a run that ended before its checks counts as one failure.
line="$(grep -E "$summary" "$work/stdout" | tail -n 1 || true)"
if [[ -z "$line" ]]; then
  line="cluster: 0 passed, 1 failed"
  ((status != 0)) || status=1
fi
echo "$line"
exit "$status"
