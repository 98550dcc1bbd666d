#!/usr/bin/env bash
# Runs inside a private network namespace (run.sh starts it with `unshare --net`),
# so every listener below is reachable from this namespace's loopback only; the
# operator's webhook server binds all interfaces and has no flag to change that.
#
# Starts etcd, kube-apiserver, kube-controller-manager (its Job controller only), the training
# operator, the JobSet controller, the Kubeflow Trainer controller and Kueue, lets check.js set up
# and check the cluster, and stops exactly the processes it started, also on failure.
#
# usage: control-plane.sh <folder with the binaries> <work folder> <repository root>
set -euo pipefail

bin="$1"
work="$2"
root="$3"
here="$root/test/cluster"

etcd_port=2379
etcd_peer_port=2380
api_port=6443
webhook_port=9443
probe_port=8081
jobset_webhook_port=9444
jobset_probe_port=8082
trainer_webhook_port=9445
trainer_probe_port=8083
kueue_webhook_port=9446
kueue_probe_port=8084
kcm_port=10257

pids=()
# Stops the started processes in reverse order (controllers, API server, etcd), each within 10 s.
stop_started() {
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid="${pids[i]}"
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap stop_started EXIT
trap 'exit 143' TERM INT

# A fresh namespace has its loopback interface down.
ip link set lo up

# Waits up to $2 seconds for command $1 to succeed; the process whose pid is $3 must stay alive.
wait_for() {
  local what="$1" seconds="$2" pid="$3"
  local deadline=$((SECONDS + seconds))
  until eval "$what" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "cluster: process $pid exited while waiting for: $what" >&2; return 1; fi
    if ((SECONDS >= deadline)); then echo "cluster: timed out after ${seconds}s waiting for: $what" >&2; return 1; fi
    sleep 0.5
  done
}

# Waits until every webhook path ($3...) of the server on port $1 answers; the process whose pid
# is $2 must stay alive. readyz turns green before the handlers exist: the controllers register
# their webhook handlers only once their certs are ready, and an unregistered path answers 404.
# An empty admission review reaching a registered handler answers 200 or 400 instead.
wait_webhooks() {
  local port="$1" pid="$2" path
  shift 2
  for path in "$@"; do
    wait_for "[[ \$(curl -s -o /dev/null -w '%{http_code}' --cacert $pki/ca.crt -X POST \
      -H 'Content-Type: application/json' -d '{}' https://127.0.0.1:$port$path) =~ ^(200|400)$ ]]" 60 "$pid"
  done
}

# Certificates: one CA for the API server's serving cert and the operator's webhook cert.
pki="$work/pki"
mkdir -p "$pki"
(
  cd "$pki"
  openssl_quiet() { openssl "$@" 2>/dev/null; }
  # The operator's cert rotator (open-policy-agent/cert-controller) keeps a CA from its
  # Secret only if the CA verifies for the DNS name "training-operator-ca" (its CAName),
  # and the serving cert only if it verifies for <webhook-service-name>.<namespace>.svc.
  # The rotator parses the CA key as PKCS #1 only (x509.ParsePKCS1PrivateKey).
  openssl_quiet genrsa -traditional -out ca.key 2048
  openssl_quiet req -x509 -key ca.key -days 3650 -out ca.crt \
    -subj "/CN=training-operator-ca" -addext "subjectAltName=DNS:training-operator-ca" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature"
  for name in apiserver webhook; do
    openssl_quiet req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "/CN=$name"
    printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:training-operator.kubeflow.svc" \
      "extendedKeyUsage=serverAuth" "keyUsage=critical,digitalSignature,keyEncipherment" > "$name.ext"
    openssl_quiet x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
      -extfile "$name.ext" -out "$name.crt"
  done
  openssl_quiet genrsa -out sa.key 2048
  openssl_quiet rsa -in sa.key -pubout -out sa.pub
)
# One token per component, each its own user (check.js binds them to cluster-admin).
admin_token="$(openssl rand -hex 24)"
printf '%s,admin,admin,system:masters\n' "$admin_token" > "$pki/tokens.csv"
for user in training-operator jobset trainer kueue kube-controller-manager; do
  user_token="$(openssl rand -hex 24)"
  printf '%s,%s,%s,\n' "$user_token" "$user" "$user" >> "$pki/tokens.csv"
  cat > "$work/$user.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "https://127.0.0.1:$api_port", certificate-authority: "$pki/ca.crt"}
users:
- name: $user
  user: {token: "$user_token"}
contexts:
- name: local
  context: {cluster: local, user: $user}
current-context: local
EOF
done

started=$SECONDS
"$bin/etcd" --name default --data-dir "$work/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster "default=http://127.0.0.1:$etcd_peer_port" --log-level warn > "$work/etcd.log" 2>&1 &
pids+=($!)
wait_for "curl -sf http://127.0.0.1:$etcd_port/health" 60 "${pids[-1]}"

"$bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --cert-dir "$work/apiserver-certs" --token-auth-file "$pki/tokens.csv" --anonymous-auth=false \
  --authorization-mode RBAC \
  --service-account-issuer "https://127.0.0.1:$api_port" --service-account-key-file "$pki/sa.pub" \
  --service-account-signing-key-file "$pki/sa.key" --service-cluster-ip-range 10.96.0.0/24 \
  --profiling=false > "$work/kube-apiserver.log" 2>&1 &
pids+=($!)
wait_for "curl -sf --cacert $pki/ca.crt -H 'Authorization: Bearer $admin_token' https://127.0.0.1:$api_port/readyz" 120 "${pids[-1]}"
echo "cluster: etcd and kube-apiserver ready in $((SECONDS - started)) s" >&2

export CLUSTER_SERVER="https://127.0.0.1:$api_port" CLUSTER_TOKEN="$admin_token" CLUSTER_CA="$pki/ca.crt"
export CLUSTER_WEBHOOK_PORT="$webhook_port" CLUSTER_JOBSET_WEBHOOK_PORT="$jobset_webhook_port"
export CLUSTER_TRAINER_WEBHOOK_PORT="$trainer_webhook_port" CLUSTER_PKI="$pki" CLUSTER_ROOT="$root" CLUSTER_CRDS="$bin/crds"
export CLUSTER_KUEUE_WEBHOOK_PORT="$kueue_webhook_port" CLUSTER_KUEUE="$bin/kueue-manifests"
node "$here/check.js" setup

# What the kubelet would do in a cluster: the operator's cert rotator waits for the Secret's
# files under its fixed certDir (pkg/cert in the operator); run.sh mounted a private tmpfs there.
certs=/tmp/k8s-webhook-server/serving-certs
cp "$pki/webhook.crt" "$certs/tls.crt"
cp "$pki/webhook.key" "$certs/tls.key"
cp "$pki/ca.crt" "$certs/ca.crt"

# Same flags a platform sets; the init container template is what makes RESTRICTED hold
# (see docs/control-plane.md).
# CLUSTER_BUILTIN_INIT_CONTAINER=1 runs the operator with its built-in template instead, which
# shows the workers of the RESTRICTED example refused.
# The template is the one the library writes (PyTorchInitContainerTemplate, examples/platform-operator.ts):
# its ConfigMap's initContainer.yaml, taken from dist/ as a platform would mount it at /etc/config.
init_template="$work/initContainer.yaml"
node -e '
const fs = require("fs"); const path = require("path"); const yaml = require(process.argv[1]);
const docs = fs.readdirSync(process.argv[2]).filter(f => f.endsWith(".yaml"))
  .flatMap(f => yaml.loadAll(fs.readFileSync(path.join(process.argv[2], f), "utf8")));
const cm = docs.find(d => d && d.kind === "ConfigMap" && d.data && d.data["initContainer.yaml"]);
if (!cm) { console.error("cluster: no ConfigMap with initContainer.yaml in dist/ (examples/platform-operator.ts)"); process.exit(1); }
fs.writeFileSync(process.argv[3], cm.data["initContainer.yaml"]);
' "$root/node_modules/js-yaml" "${CLUSTER_DIST:-$root/dist}" "$init_template"
[[ -z "${CLUSTER_BUILTIN_INIT_CONTAINER:-}" ]] || init_template="$work/no-such-template.yaml"
started=$SECONDS
KUBECONFIG="$work/training-operator.kubeconfig" MY_POD_NAMESPACE=kubeflow "$bin/training-operator" \
  --webhook-server-port "$webhook_port" --metrics-bind-address 0 \
  --health-probe-bind-address "127.0.0.1:$probe_port" \
  --pytorch-init-container-template-file "$init_template" \
  --zap-log-level info > "$work/training-operator.log" 2>&1 &
pids+=($!)
wait_for "curl -sf http://127.0.0.1:$probe_port/readyz" 60 "${pids[-1]}"
wait_webhooks "$webhook_port" "${pids[-1]}" \
  /validate-kubeflow-org-v1-{pytorchjob,tfjob,xgboostjob,paddlejob,jaxjob}
echo "cluster: training operator and its webhooks ready in $((SECONDS - started)) s" >&2

# kube-controller-manager with the Job controller only: it makes the pods of the Jobs that
# JobSet creates (the training operator makes its pods itself). No other controller is needed:
# check.js creates the ServiceAccounts, nothing here deletes, and no pod is ever scheduled.
started=$SECONDS
"$bin/kube-controller-manager" --kubeconfig "$work/kube-controller-manager.kubeconfig" \
  --controllers job-controller --leader-elect=false \
  --bind-address 127.0.0.1 --secure-port "$kcm_port" --cert-dir "$work/kcm-certs" \
  --profiling=false > "$work/kube-controller-manager.log" 2>&1 &
pids+=($!)
# Its serving cert is self-signed into --cert-dir; /healthz is only probed, so -k.
wait_for "curl -sfk https://127.0.0.1:$kcm_port/healthz" 60 "${pids[-1]}"
echo "cluster: kube-controller-manager (Job controller) ready in $((SECONDS - started)) s" >&2

# JobSet and the Trainer read a configuration file instead of flags. Both run without their
# internal cert management (it would mint a cert for an in-cluster Service and patch the
# webhook configurations with its own CA): they serve the tier's webhook cert, which the
# private tmpfs above holds, on 127.0.0.1 only, and check.js registered their webhooks by URL.
cat > "$work/jobset-config.yaml" <<EOF
apiVersion: config.jobset.x-k8s.io/v1alpha1
kind: Configuration
webhook: {port: $jobset_webhook_port, host: 127.0.0.1, certDir: $certs}
health: {healthProbeBindAddress: "127.0.0.1:$jobset_probe_port"}
metrics: {bindAddress: "0"}
leaderElection: {leaderElect: false}
internalCertManagement: {enable: false}
EOF
started=$SECONDS
KUBECONFIG="$work/jobset.kubeconfig" "$bin/jobset" --config "$work/jobset-config.yaml" \
  --metrics-bind-address 0 --zap-log-level info > "$work/jobset.log" 2>&1 &
pids+=($!)
wait_for "curl -sf http://127.0.0.1:$jobset_probe_port/readyz" 60 "${pids[-1]}"
wait_webhooks "$jobset_webhook_port" "${pids[-1]}" \
  /mutate-jobset-x-k8s-io-v1alpha2-jobset /validate-jobset-x-k8s-io-v1alpha2-jobset /mutate--v1-pod /validate--v1-pod
echo "cluster: JobSet controller and its webhooks ready in $((SECONDS - started)) s" >&2

cat > "$work/trainer-config.yaml" <<EOF
apiVersion: config.trainer.kubeflow.org/v1alpha1
kind: Configuration
webhook: {port: $trainer_webhook_port, host: 127.0.0.1}
health: {healthProbeBindAddress: "127.0.0.1:$trainer_probe_port"}
metrics: {bindAddress: "0"}
leaderElection: {leaderElect: false}
certManagement: {enable: false}
EOF
started=$SECONDS
KUBECONFIG="$work/trainer.kubeconfig" "$bin/trainer" --config "$work/trainer-config.yaml" \
  --zap-log-level info > "$work/trainer.log" 2>&1 &
pids+=($!)
wait_for "curl -sf http://127.0.0.1:$trainer_probe_port/readyz" 60 "${pids[-1]}"
wait_webhooks "$trainer_webhook_port" "${pids[-1]}" \
  /mutate-trainer-kubeflow-org-v1alpha1-trainjob /validate-trainer-kubeflow-org-v1alpha1-{trainjob,trainingruntime,clustertrainingruntime}
echo "cluster: Trainer controller and its webhooks ready in $((SECONDS - started)) s" >&2

# Kueue (the version test/cluster/bin/kueue pins; check.js installed its CRDs with v1beta1 unserved)
# with the integrations of the job kinds this tier runs (the names of its pkg/controller/jobs/*:
# FrameworkName). kubeflow.org/mpijob is left out: it is the MPI operator's v2beta1 MPIJob, not the
# training operator's v1 one. Without its internal cert
# management Kueue serves the tier's webhook cert (its webhooks, the CRD conversion at /convert)
# and still reads a metrics cert from the fixed /etc/kueue/metrics/certs even with metrics off:
# an overlay on /etc, private to this mount namespace, holds it. The visibility API server is off
# (it needs internal cert management).
etc_overlay="$work/etc-overlay"
mkdir -p "$etc_overlay"
mount -t tmpfs -o size=1m tmpfs "$etc_overlay"
mkdir -p "$etc_overlay/upper" "$etc_overlay/work"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$etc_overlay/upper,workdir=$etc_overlay/work" /etc
mkdir -p /etc/kueue/metrics/certs
cp "$pki/webhook.crt" /etc/kueue/metrics/certs/tls.crt
cp "$pki/webhook.key" /etc/kueue/metrics/certs/tls.key
cat > "$work/kueue-config.yaml" <<EOF
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
webhook: {port: $kueue_webhook_port, host: 127.0.0.1, certDir: $certs}
health: {healthProbeBindAddress: "127.0.0.1:$kueue_probe_port"}
metrics: {bindAddress: "0"}
leaderElection: {leaderElect: false}
internalCertManagement: {enable: false}
manageJobsWithoutQueueName: false
featureGates: {VisibilityOnDemand: false}
integrations:
  frameworks:
    - batch/job
    - kubeflow.org/pytorchjob
    - kubeflow.org/tfjob
    - kubeflow.org/xgboostjob
    - kubeflow.org/paddlejob
    - kubeflow.org/jaxjob
    - jobset.x-k8s.io/jobset
    - trainer.kubeflow.org/trainjob
EOF
started=$SECONDS
KUBECONFIG="$work/kueue.kubeconfig" "$bin/kueue" --config "$work/kueue-config.yaml" \
  --zap-log-level info > "$work/kueue.log" 2>&1 &
pids+=($!)
wait_for "curl -sf http://127.0.0.1:$kueue_probe_port/readyz" 90 "${pids[-1]}"
wait_webhooks "$kueue_webhook_port" "${pids[-1]}" \
  /mutate-kubeflow-org-v1-{pytorchjob,tfjob,xgboostjob,paddlejob,jaxjob} /mutate-trainer-kubeflow-org-v1alpha1-trainjob \
  /mutate-jobset-x-k8s-io-v1alpha2-jobset /mutate-batch-v1-job /validate-kueue-x-k8s-io-v1beta2-clusterqueue
echo "cluster: Kueue and its webhooks ready in $((SECONDS - started)) s" >&2

node "$here/check.js" check
