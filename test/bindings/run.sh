#!/usr/bin/env bash
# Builds the Python, Java and Go packages with jsii-pacmak and tests each in its own language:
# pytest in a venv, JUnit 5 through Maven, go test with replace directives. Prints the size of each
# package and the time of each step; exits non-zero on the first failure.
#
#   npm run test:bindings        (or: bash test/bindings/run.sh)
#
# Needs Node, Python 3 with venv and pip, JDK 17 + Maven, Go, and the package registries (PyPI,
# Maven Central, the Go module proxy). PyPI is asked once per set of pins: the Python venvs and the
# Python guide's test install from a wheel folder outside the repository (see python_wheels). The
# guide's test runs on Node.js 24 (scripts/node-binary.sh, which fetches it once from the npm
# registry). Two registries do not serve what the packages depend on:
# Maven Central has no org.cdk8s:cdk8s-plus-28 and the Go module proxy has neither
# github.com/cdk8s-team/cdk8s-core-go nor cdk8s-plus-go. pacmak therefore also builds those from the
# npm packages in node_modules (same versions as package.json) into the artifacts directory, and
# the Java and Go tests take them from there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
BINDINGS="$ROOT/test/bindings"

# Every jsii process (compiler, pacmak, the kernel under each language runtime) prints a banner
# when Node is past its end of life or deprecated; it is said once below instead.
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION="$NODE_MAJOR"
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION=1

pkg_field() { node -p "require('./package.json').$1"; }
dep_version() { node -p "require('./node_modules/$1/package.json').version"; }

OUTDIR="$(pkg_field jsii.outdir)"          # dist-packages (dist/ holds the synthesized examples)
VERSION="$(pkg_field version)"
CDK8S_VERSION="$(dep_version cdk8s)"
PLUS_VERSION="$(dep_version cdk8s-plus-28)"
CONSTRUCTS_VERSION="$(dep_version constructs)"
JSII_RUNTIME_VERSION="$(dep_version jsii-pacmak)"   # the runtimes the generated code was written for
PYTEST_VERSION=9.2.0
# The integrations of docs/bindings.md (a second venv: the AWS CDK needs constructs >= 10.5).
AWS_CDK_LIB_VERSION=2.275.0
KUBECTL_LAYER_VERSION=2.1.0          # aws-cdk.lambda-layer-kubectl-v31
PULUMI_VERSION=3.272.0
PULUMI_KUBERNETES_VERSION=4.34.2
INTEGRATIONS="${BINDINGS_INTEGRATIONS:-1}"   # BINDINGS_INTEGRATIONS=0 skips them
ONLY="${BINDINGS_ONLY:-}"                    # BINDINGS_ONLY=python builds and tests Python alone

# ---- timing -------------------------------------------------------------------------------------
declare -a STEP_NAMES=() STEP_TIMES=()
START_ALL=$(date +%s%N)
CURRENT=""
step() {
  local name="$1"; shift
  CURRENT="$name"
  echo
  echo "==> [bindings] $name"
  local t0; t0=$(date +%s%N)
  "$@"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  STEP_NAMES+=("$name"); STEP_TIMES+=("$ms")
  printf '<== [bindings] %s: %d.%01d s\n' "$name" $((ms / 1000)) $(((ms % 1000) / 100))
  CURRENT=""
}
seconds() { printf '%d.%01d s' $(($1 / 1000)) $((($1 % 1000) / 100)); }
summary() {
  local rc=$?
  echo
  echo "---- [bindings] step times ----"
  local i
  for i in "${!STEP_NAMES[@]}"; do
    printf '  %-50s %10s\n' "${STEP_NAMES[$i]}" "$(seconds "${STEP_TIMES[$i]}")"
  done
  printf '  %-50s %10s\n' "total" "$(seconds $(( ($(date +%s%N) - START_ALL) / 1000000 )))"
  if [ "$rc" -ne 0 ]; then
    echo "[bindings] FAILED${CURRENT:+ in step: $CURRENT} (exit $rc)"
  fi
  [ -n "${STAGE:-}" ] && rm -rf "$STAGE"
  exit "$rc"
}
trap summary EXIT

# ---- build --------------------------------------------------------------------------------------
# The project's compile task: jsii, the boundary table, and the entry point that loads each module
# on first use, so the packages embed the JavaScript that npm users get.
compile() {
  npx projen compile
}

check_names() {
  python3 "$BINDINGS/check_names.py" .jsii
}

# pacmak packs the npm tarball from the project folder and embeds it in every package; the npm
# ignore list does not exclude the artifacts directory, so packages built earlier would end up
# inside the ones built later. The artifacts directory is therefore emptied first and every build
# writes to a staging folder outside the project, moved into place at the end.
STAGE=""
prepare() {
  rm -rf "$OUTDIR"
  STAGE="$(mktemp -d "${TMPDIR:-/tmp}/cdk8s-kubeflow-pacmak.XXXXXX")"
}

# pacmak TARGET PROJECT... (the projects come first: --target takes every word after it)
pacmak() {
  local target="$1"; shift
  # --no-npmignore: pacmak would otherwise append the outdir to the tracked .npmignore.
  npx jsii-pacmak "$@" --no-npmignore --force-subdirectory --outdir "$STAGE" --target "$target"
}
package_python() { pacmak python .; }
package_java() { pacmak java . node_modules/cdk8s-plus-28; }
package_go() { pacmak go . node_modules/cdk8s node_modules/cdk8s-plus-28; }

publish() {
  mkdir -p "$OUTDIR"
  mv "$STAGE"/* "$OUTDIR"/
}

publish_and_check() { publish; check_artifacts; check_clean; }

# Packaging must leave the checkout as it found it (pacmak appends to .npmignore unless told not
# to): the porcelain status after the builds is the one before them.
STATUS_BEFORE="$(git status --porcelain 2>/dev/null || true)"
check_clean() {
  local after
  after="$(git status --porcelain 2>/dev/null || true)"
  if [ "$after" != "$STATUS_BEFORE" ]; then
    diff <(echo "$STATUS_BEFORE") <(echo "$after") || true
    echo "packaging changed the checkout (above: git status before and after)"
    return 1
  fi
}

WHEEL=""; JAR=""; GOMOD=""
check_artifacts() {
  WHEEL="$OUTDIR/python/cdk8s_kubeflow-$VERSION-py3-none-any.whl"
  JAR="$OUTDIR/java/io/github/cdk8s-kubeflow/cdk8s-kubeflow/$VERSION/cdk8s-kubeflow-$VERSION.jar"
  GOMOD="$OUTDIR/go/cdk8skubeflow"
  local f
  local wanted=("$WHEEL")
  [ "$ONLY" = python ] || wanted+=("$JAR" "$GOMOD/go.mod" "$OUTDIR/java/org/cdk8s/cdk8s-plus-28/$PLUS_VERSION" \
           "$OUTDIR/go/cdk8s/go.mod" "$OUTDIR/go/cdk8splus28/go.mod")
  for f in "${wanted[@]}"; do
    [ -e "$f" ] || { echo "missing artifact: $f"; return 1; }
  done
  [ "$ONLY" = python ] && return 0
  # The npm tarball every package embeds holds the compiled library and nothing else.
  local tgz listing
  tgz="$(find "$GOMOD/jsii" -name '*.tgz' | head -n1)"
  listing="$(tar tzf "$tgz")"
  # Anything else comes from a folder that .npmignore misses (the staging above keeps the
  # artifacts directory out); it would be published in all four packages, so say it loudly.
  local extra
  extra="$(grep -vE '^package/(package\.json|README\.md|LICENSE|NOTICE|API\.md|\.jsii|lib/.*)$' <<<"$listing" || true)"
  if grep -q '^package/dist-packages/' <<<"$extra"; then
    echo "$extra"
    echo "the npm tarball embedded in the packages holds earlier packages: $tgz"
    return 1
  elif [ -n "$extra" ]; then
    echo "WARNING: files outside lib/ in the npm tarball every package embeds (add their folders to"
    echo "the npm ignore list in .projenrc.ts, project.addPackageIgnore):"
    sed 's/^/  /' <<<"$extra" | head -n 20
  fi
}

# ---- Python -------------------------------------------------------------------------------------
# Every wheel the Python tests install, the wheel's own dependencies included, is downloaded once
# per set of pins into a folder outside the repository; the venvs below, and the Python guide's
# test (docs/python.md, run in a fresh folder), install from it with pip --no-index, so they take
# nothing from PyPI once it is filled. The folder is named by the Python version and the pins.
PY_PINS=("cdk8s==$CDK8S_VERSION" "cdk8s-plus-28==$PLUS_VERSION" "constructs==$CONSTRUCTS_VERSION"
         "jsii==$JSII_RUNTIME_VERSION" "pytest==$PYTEST_VERSION")
PY_KEY="$(python3 -c 'import sys; print("py%d.%d" % sys.version_info[:2])')-$(printf '%s\n' "${PY_PINS[@]}" | sha256sum | cut -c1-12)"
export CDK8S_KUBEFLOW_WHEELHOUSE="${CDK8S_KUBEFLOW_CACHE:-$HOME/.cache/cdk8s-kubeflow}/python-wheels/$PY_KEY"
python_wheels() {
  if [ -f "$CDK8S_KUBEFLOW_WHEELHOUSE/.complete" ]; then
    echo "cached: $CDK8S_KUBEFLOW_WHEELHOUSE"
    return 0
  fi
  local tmp="$CDK8S_KUBEFLOW_WHEELHOUSE.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # With the wheel, so that its own requirements (typeguard, publication) are there too; the
  # wheel itself is left out of the cache (its version stays 0.0.0 from build to build).
  python3 -m pip download --quiet --disable-pip-version-check --dest "$tmp" "$WHEEL" "${PY_PINS[@]}"
  rm -f "$tmp"/cdk8s_kubeflow-*.whl
  touch "$tmp/.complete"
  rm -rf "$CDK8S_KUBEFLOW_WHEELHOUSE" && mv "$tmp" "$CDK8S_KUBEFLOW_WHEELHOUSE"
  echo "downloaded: $(ls "$CDK8S_KUBEFLOW_WHEELHOUSE" | wc -l) wheels into $CDK8S_KUBEFLOW_WHEELHOUSE"
}
pip_offline() {
  "$1/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --find-links "$CDK8S_KUBEFLOW_WHEELHOUSE" "${@:2}"
}
VENV="$BINDINGS/python/.venv"
python_setup() {
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  pip_offline "$VENV" "${PY_PINS[@]}"
  # The version stays 0.0.0 from build to build: force the new wheel in.
  pip_offline "$VENV" --no-deps --force-reinstall "$WHEEL"
  "$VENV/bin/python" -m pip check
}
# The guide's test (test_guide.py) runs the guide on Node.js 24, whatever node runs this script,
# with the wheel just built; the other tests run on the node first on PATH.
python_test() {
  CDK8S_KUBEFLOW_GUIDE_NODE="$(scripts/node-binary.sh 24)" CDK8S_KUBEFLOW_WHEEL="$ROOT/$WHEEL" \
    "$VENV/bin/python" -m pytest -p no:cacheprovider "$BINDINGS/python"
}

# ---- the integrations of docs/bindings.md (Pulumi, AWS CDK) ---------------------------------------
IVENV="$BINDINGS/integrations/.venv"
integrations_setup() {
  [ -x "$IVENV/bin/python" ] || python3 -m venv "$IVENV"
  "$IVENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "cdk8s==$CDK8S_VERSION" "cdk8s-plus-28==$PLUS_VERSION" "pytest==$PYTEST_VERSION" \
    "aws-cdk-lib==$AWS_CDK_LIB_VERSION" "aws-cdk.lambda-layer-kubectl-v31==$KUBECTL_LAYER_VERSION" \
    "pulumi==$PULUMI_VERSION" "pulumi-kubernetes==$PULUMI_KUBERNETES_VERSION"
  "$IVENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$WHEEL"
  "$IVENV/bin/python" -m pip check
}
integrations_test() {
  "$IVENV/bin/python" -m pytest -p no:cacheprovider "$BINDINGS/integrations"
}

# ---- Java ---------------------------------------------------------------------------------------
java_test() {
  # Maven copies artifacts of a file:// repository into its local repository and never looks
  # again for a release version: drop the copies of the two jars built here, and check afterwards
  # that the jar Maven used is the one just built.
  local m2
  m2="$(mvn -B -q -f "$BINDINGS/java/pom.xml" help:evaluate -Dexpression=settings.localRepository -DforceStdout \
        | sed 's/\x1b\[[0-9;]*m//g' | tail -n1)"
  [ -d "$m2" ] || { echo "cannot find Maven's local repository (got: $m2)"; return 1; }
  local used="$m2/io/github/cdk8s-kubeflow/cdk8s-kubeflow/$VERSION/cdk8s-kubeflow-$VERSION.jar"
  rm -rf "$(dirname "$used")" "$m2/org/cdk8s/cdk8s-plus-28/$PLUS_VERSION"
  mvn -B -ntp -Dstyle.color=never -f "$BINDINGS/java/pom.xml" \
    "-Dcdk8s-kubeflow.version=$VERSION" "-Dcdk8s.version=$CDK8S_VERSION" \
    "-Dcdk8s-plus-28.version=$PLUS_VERSION" "-Dconstructs.version=$CONSTRUCTS_VERSION" \
    "-Djsii-runtime.version=$JSII_RUNTIME_VERSION" \
    test
  cmp "$used" "$JAR" || { echo "Maven tested $used, not the jar just built ($JAR)"; return 1; }
}

# ---- Go -----------------------------------------------------------------------------------------
go_test() {
  # go.mod pins the npm versions by hand (go test must not rewrite it): say so when they drift.
  local want
  for want in "github.com/aws/jsii-runtime-go v$JSII_RUNTIME_VERSION" \
              "github.com/aws/constructs-go/constructs/v10 v$CONSTRUCTS_VERSION" \
              "github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v$CDK8S_VERSION" \
              "github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v$PLUS_VERSION"; do
    if ! grep -qF "	$want" "$BINDINGS/go/go.mod"; then
      echo "test/bindings/go/go.mod does not require $want (the version in node_modules);"
      echo "update the require line and run 'go mod tidy' in test/bindings/go"
      return 1
    fi
  done
  (cd "$BINDINGS/go" && go test -count=1 -v ./...)
}

# ---- sizes --------------------------------------------------------------------------------------
sizes() {
  human() { numfmt --to=iec-i --suffix=B "$1"; }
  local gobytes jsiitgz
  gobytes=$(du -sb "$GOMOD" | cut -f1)
  jsiitgz=$(find "$GOMOD/jsii" -name '*.tgz' -printf '%s\n' | head -n1)
  echo "---- [bindings] package sizes ----"
  printf '  %-58s %10s\n' "python wheel  $(basename "$WHEEL")" "$(human "$(stat -c %s "$WHEEL")")"
  printf '  %-58s %10s\n' "java jar     $(basename "$JAR")" "$(human "$(stat -c %s "$JAR")")"
  printf '  %-58s %10s\n' "go module    $OUTDIR/go/cdk8skubeflow (dir)" "$(human "$gobytes")"
  printf '  %-58s %10s\n' "  of which the embedded npm tarball" "$(human "$jsiitgz")"
  printf '  %-58s %10s\n' "(built for the tests: cdk8s-plus-28 jar)" \
    "$(human "$(stat -c %s "$OUTDIR/java/org/cdk8s/cdk8s-plus-28/$PLUS_VERSION/cdk8s-plus-28-$PLUS_VERSION.jar")")"
  printf '  %-58s %10s\n' "(built for the tests: go cdk8s + cdk8splus28 dirs)" \
    "$(human $(( $(du -sb "$OUTDIR/go/cdk8s" | cut -f1) + $(du -sb "$OUTDIR/go/cdk8splus28" | cut -f1) )))"
}

echo "[bindings] node $(node --version) (jsii's Node end-of-life banners are silenced), $(python3 --version), $(java -version 2>&1 | head -n1), $(go version | cut -d' ' -f3)"
echo "[bindings] cdk8s-kubeflow $VERSION; cdk8s $CDK8S_VERSION, cdk8s-plus-28 $PLUS_VERSION, constructs $CONSTRUCTS_VERSION, jsii runtime $JSII_RUNTIME_VERSION; artifacts in $OUTDIR/"
step "compile (jsii)" compile
step "public names in Python, Java and Go" check_names
step "prepare $OUTDIR/" prepare
step "pacmak python" package_python
if [ "$ONLY" != python ]; then
  step "pacmak java (+ cdk8s-plus-28)" package_java
  step "pacmak go (+ cdk8s, cdk8s-plus-28)" package_go
fi
step "publish to $OUTDIR/ and check the artifacts" publish_and_check
step "python: wheels for offline installs" python_wheels
step "python: venv and install" python_setup
step "python: pytest" python_test
if [ "$ONLY" = python ]; then
  echo "[bindings] BINDINGS_ONLY=python: Java, Go and the integrations are not built or run"
  exit 0
fi
step "java: mvn test" java_test
step "go: go test" go_test
if [ "$INTEGRATIONS" != 0 ]; then
  step "integrations: venv and install" integrations_setup
  step "integrations: pytest (Pulumi, AWS CDK)" integrations_test
else
  echo "[bindings] BINDINGS_INTEGRATIONS=0: the Pulumi and AWS CDK snippets of docs/bindings.md are not run"
fi
sizes
echo "[bindings] all language tests passed"
