// Trainer v2.2.0, the oldest Trainer of the window the module proxy serves, on every trainer
// document the tests and the examples write: the API server's steps with v2.2.0's CRDs, the
// Trainer webhooks (runtime validation, TrainJob defaulter and validator with the runtime
// plugins), then the JobSet v2.2.0's controller code builds for each accepted TrainJob (an error
// fails). The source is ../trainer's; the JobSet webhooks (release.go) and the oracle's comparison
// with the job's intent run at v2.3.0 only (../trainer, TestOracle).
package trainer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

var defaultManifestDirs = []string{"../../test-reports/manifests", "../../dist"}

func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// moduleDir is the folder of the Trainer module in the build list, which must be the release.
func moduleDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-json", "github.com/kubeflow/trainer/v2").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/kubeflow/trainer/v2: %v", err)
	}
	var module struct{ Version, Dir string }
	if err := json.Unmarshal(out, &module); err != nil {
		t.Fatal(err)
	}
	if module.Version != Release || module.Dir == "" {
		t.Fatalf("the build list holds github.com/kubeflow/trainer/v2 %s; expected %s", module.Version, Release)
	}
	return module.Dir
}

// newChecker loads the release's own CRDs (manifests/base/crds) and built-in runtimes
// (manifests/base/runtimes, what a platform cluster installs with this trainer) from the module.
func newChecker(t *testing.T) (*Checker, int) {
	t.Helper()
	dir := moduleDir(t)
	// LoadSchemas reads every YAML file of a folder as a CRD: only the CRDs, not the kustomization.
	crds := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(dir, "manifests", "base", "crds", "trainer.kubeflow.org_*.yaml"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(crds, filepath.Base(f)), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	schemas, err := LoadSchemas(crds)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := corpus.ReadDirs([]string{filepath.Join(dir, "manifests", "base", "runtimes")})
	if err != nil {
		t.Fatal(err)
	}
	var builtins []corpus.Document
	for _, d := range docs {
		if IsRuntime(d) {
			builtins = append(builtins, d)
		}
	}
	if len(builtins) == 0 {
		t.Fatalf("no built-in runtimes in the %s module", Release)
	}
	checker, err := NewChecker(schemas, builtins)
	if err != nil {
		t.Fatal(err)
	}
	return checker, len(builtins)
}

// TestWebhooks applies each manifest file as one set (one app's output) on a cluster holding the
// release's built-in runtimes and requires every trainer document accepted, and the JobSet built
// for each accepted TrainJob accepted by the JobSet webhooks.
func TestWebhooks(t *testing.T) {
	checker, builtins := newChecker(t)
	dirs := corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...)
	docs, err := corpus.ReadDirs(dirs)
	if err != nil {
		t.Fatalf("%v\n(run the jest suite and `npm run synth` first, or set MANIFESTS_DIR)", err)
	}
	if err := checker.Share(docs); err != nil {
		t.Fatal(err)
	}
	// Each file with a trainer document, in order, and every document of it (a set).
	var files []string
	listed := map[string]bool{}
	byFile := map[string][]corpus.Document{}
	for _, d := range docs {
		if IsTrainerKind(d) && !listed[d.File] {
			listed[d.File] = true
			files = append(files, d.File)
		}
		byFile[d.File] = append(byFile[d.File], d)
	}
	var documents, accepted, refused, skipped, runtimes, jobs, built, buildFailed, jobSetRefused int
	for _, file := range files {
		results, err := checker.Check(context.Background(), byFile[file])
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			documents++
			switch {
			case r.Skipped:
				skipped++
				accepted++
				continue
			case !r.Accepted():
				refused++
				t.Errorf("not accepted by Trainer %s: %s", Release, r.Problem())
				continue
			}
			accepted++
			if IsRuntime(r.Document) {
				runtimes++
				continue
			}
			jobs++
			switch {
			case r.BuildError != nil:
				buildFailed++
				t.Errorf("%s: Trainer %s's controller cannot build its JobSet: %v", r.Document.Label(), Release, r.BuildError)
			case r.Built != nil:
				built++
				if p := r.JobSetProblem(); p != "" {
					jobSetRefused++
					t.Error(p)
				}
			}
		}
	}
	if documents == 0 {
		t.Fatalf("no trainer documents under %s", strings.Join(dirs, ", "))
	}
	jobSetLine := fmt.Sprintf("refused by the JobSet webhooks %d", jobSetRefused)
	if !JobSetWebhooks {
		jobSetLine = "the JobSet webhooks run at v2.3.0's pins only"
	}
	fmt.Printf("trainer %s: %d documents, %d accepted, %d refused (%d runtimes, %d trainjobs, %d runtimes kept from the webhooks by their label; %d built-in runtimes); JobSets built by %s's controller code %d, not built %d; %s\n",
		Release, documents, accepted, refused, runtimes, jobs, skipped, builtins, Release, built, buildFailed, jobSetLine)
}

// TestControl proves the webhooks refuse at v2.2.0 what they should, and shows where v2.2.0 and
// v2.3.0 differ: the upstream examples pinned in upstream/ (v2.3.0's), applied as one set, are all
// accepted, including the job of jobs/05-multi-step.yaml that v2.3.0's TrainJob validator refuses
// (its inline runtime's dataset-initializer has no "initializer" volumeMount: a check v2.3.0
// added); a TrainJob naming a runtime the cluster does not have is refused.
func TestControl(t *testing.T) {
	checker, _ := newChecker(t)
	dir := "../../upstream/examples/upstream-v2"
	docs, err := corpus.ReadDirs([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	missing, err := corpus.Decode("missing-runtime.yaml", []byte(missingRuntimeJob))
	if err != nil {
		t.Fatal(err)
	}
	results, err := checker.Check(context.Background(), append(docs, missing...))
	if err != nil {
		t.Fatal(err)
	}
	var accepted, refused int
	for _, r := range results {
		if r.Document.File == missing[0].File {
			if r.Verdict.Allowed || r.Verdict.Webhook != "validator.trainjob.trainer.kubeflow.org" || r.Verdict.Message != missingRuntimeMessage {
				t.Errorf("%s: expected refused by validator.trainjob.trainer.kubeflow.org with\n  %s\ngot allowed=%v by %q:\n  %s", r.Document.Label(), missingRuntimeMessage, r.Verdict.Allowed, r.Verdict.Webhook, r.Verdict.Message)
			} else {
				refused++
			}
			continue
		}
		if r.Accepted() {
			accepted++
		} else {
			t.Errorf("upstream example refused by Trainer %s: %s", Release, r.Problem())
		}
	}
	fmt.Printf("trainer %s, control: upstream examples (v2.3.0's, incl. the 05-multi-step job v2.3.0 refuses) %d accepted; known-invalid %d refused\n", Release, accepted, refused)
}

// missingRuntimeJob names a ClusterTrainingRuntime no cluster here has.
const missingRuntimeJob = `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: no-such-runtime
  namespace: default
spec:
  runtimeRef:
    name: no-such-runtime
`

const missingRuntimeMessage = `spec.RuntimeRef: Invalid value: {"name":"no-such-runtime","apiGroup":"trainer.kubeflow.org","kind":"ClusterTrainingRuntime"}: ` +
	`clustertrainingruntimes.trainer.kubeflow.org "no-such-runtime" not found: specified clusterTrainingRuntime must be created before the TrainJob is created`
