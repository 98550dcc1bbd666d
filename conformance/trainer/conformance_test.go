package trainer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Folders the manifests come from, relative to this module, when MANIFESTS_DIR is not set.
var defaultManifestDirs = []string{"../../test-reports/manifests", "../../dist"}

// The pinned upstream release in the repository (upstream/, checked against upstream/pins.json by
// `npx projen import:verify`): its CRDs and its examples.
var (
	crdsDir     = envOr("TRAINER_CRDS_DIR", "../../upstream/crds/trainer-v2")
	upstreamDir = envOr("TRAINER_UPSTREAM_DIR", "../../upstream/examples/upstream-v2")
)

// upstreamRejected is the one upstream example the release's own webhook refuses: the
// TrainingRuntime that 05-multi-step.yaml inlines gives its dataset-initializer container no
// volumeMount named "initializer", which the JobSet plugin's validation requires of a TrainJob
// with spec.initializer.dataset (pkg/runtime/framework/plugins/jobset, Validate).
const (
	upstreamRejectedFile    = "jobs/05-multi-step.yaml"
	upstreamRejectedWebhook = "validator.trainjob.trainer.kubeflow.org"
	upstreamRejectedMessage = `spec.runtimeRef: Invalid value: {"name":"torch-with-dataset-init","apiGroup":"trainer.kubeflow.org","kind":"TrainingRuntime"}: ` +
		"must have volumeMount with name - initializer in container dataset-initializer of the dataset-initializer job"
)

func envOr(name, fallback string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return fallback
}

func TestMain(m *testing.M) {
	// The webhook builder logs each registration; controller-runtime warns on stderr when no logger
	// is set.
	ctrllog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// newChecker loads the CRDs and the built-in runtimes (the release's manifests/base/runtimes, which
// a platform cluster installs with the trainer).
func newChecker(t *testing.T) (*Checker, []corpus.Document) {
	t.Helper()
	schemas, err := LoadSchemas(crdsDir)
	if err != nil {
		t.Fatal(err)
	}
	builtins, err := corpus.ReadDirs([]string{filepath.Join(upstreamDir, "runtimes")})
	if err != nil {
		t.Fatal(err)
	}
	if len(builtins) == 0 {
		t.Fatalf("no built-in runtimes under %s", upstreamDir)
	}
	checker, err := NewChecker(schemas, builtins)
	if err != nil {
		t.Fatal(err)
	}
	return checker, builtins
}

// The webhook run of each input is shared by TestWebhooks and TestOracle (it is most of the CPU).
var (
	upstreamOnce   sync.Once
	upstreamRun    []Result
	upstreamErr    error
	libraryOnce    sync.Once
	libraryDirs    []string
	libraryFiles   []fileResults
	libraryReadErr error
)

// fileResults is the webhooks' outcome for one manifest file with trainer documents.
type fileResults struct {
	file    string
	set     []corpus.Document
	results []Result
	err     error
}

// upstreamResults applies the upstream corpus once per test binary.
func upstreamResults(t *testing.T, checker *Checker) []Result {
	t.Helper()
	upstreamOnce.Do(func() {
		docs, err := corpus.ReadDirs([]string{upstreamDir})
		if err != nil {
			upstreamErr = err
			return
		}
		upstreamRun, upstreamErr = checker.Check(context.Background(), docs)
	})
	if upstreamErr != nil {
		t.Fatal(upstreamErr)
	}
	return upstreamRun
}

// libraryResults applies each manifest file with trainer documents once per test binary.
func libraryResults(t *testing.T, checker *Checker) ([]string, []fileResults) {
	t.Helper()
	libraryOnce.Do(func() {
		libraryDirs = corpus.Dirs("MANIFESTS_DIR", defaultManifestDirs...)
		docs, err := corpus.ReadDirs(libraryDirs)
		if err != nil {
			libraryReadErr = fmt.Errorf("%v\n(run the jest suite with MANIFESTS_DUMP_DIR set and `npm run synth` first, or set MANIFESTS_DIR to a list of folders)", err)
			return
		}
		var files []string
		byFile := map[string][]corpus.Document{}
		for _, d := range docs {
			if _, seen := byFile[d.File]; !seen {
				files = append(files, d.File)
			}
			byFile[d.File] = append(byFile[d.File], d)
		}
		if err := checker.Share(docs); err != nil {
			libraryReadErr = err
			return
		}
		for _, file := range files {
			set := byFile[file]
			hasTrainer := false
			for _, d := range set {
				hasTrainer = hasTrainer || IsTrainerKind(d)
			}
			if !hasTrainer {
				continue
			}
			results, err := checker.Check(context.Background(), set)
			libraryFiles = append(libraryFiles, fileResults{file: file, set: set, results: results, err: err})
		}
	})
	if libraryReadErr != nil {
		t.Fatal(libraryReadErr)
	}
	t.Logf("manifests from %s", strings.Join(libraryDirs, ", "))
	return libraryDirs, libraryFiles
}

// upstreamFigures counts the control run.
type upstreamFigures struct{ accepted, rejected, skipped int }

// checkUpstream applies the whole upstream corpus as one set (the Flux jobs use the runtime of
// another file) and holds it to what the release does with it.
func checkUpstream(t *testing.T, checker *Checker) upstreamFigures {
	t.Helper()
	results := upstreamResults(t, checker)
	var f upstreamFigures
	rejectedFile := filepath.Join(upstreamDir, upstreamRejectedFile)
	for _, r := range results {
		if len(r.Pruned) > 0 {
			t.Errorf("%s: the API server would prune %v from an upstream example: the CRD schemas are not the release's", r.Document.Label(), r.Pruned)
		}
		switch {
		case r.Skipped:
			f.skipped++
		case r.Document.File == rejectedFile && r.Document.Kind() == "TrainJob":
			if r.Verdict.Allowed {
				t.Errorf("%s: accepted, but the release's webhook rejects it", r.Document.Label())
				continue
			}
			if r.Verdict.Webhook != upstreamRejectedWebhook || r.Verdict.Message != upstreamRejectedMessage {
				t.Errorf("%s: rejected by %q with\n  %s\nexpected %q with\n  %s", r.Document.Label(), r.Verdict.Webhook, r.Verdict.Message, upstreamRejectedWebhook, upstreamRejectedMessage)
				continue
			}
			f.rejected++
		case !r.Verdict.Allowed:
			t.Errorf("upstream example rejected: %s", r.Problem())
		default:
			f.accepted++
		}
		for _, w := range r.Verdict.Warnings {
			t.Logf("warning: %s: %s", r.Document.Label(), w)
		}
	}
	if f.rejected != 1 {
		t.Errorf("expected the TrainJob of %s rejected once, got %d", rejectedFile, f.rejected)
	}
	return f
}

// libraryFigures counts the library's documents.
type libraryFigures struct{ files, runtimes, trainJobs, skipped, warnings int }

// checkLibrary applies each manifest file as one set (one app's output) on a cluster holding the
// built-in runtimes, and requires every trainer document of it to be accepted.
func checkLibrary(t *testing.T, checker *Checker) libraryFigures {
	t.Helper()
	dirs, files := libraryResults(t, checker)
	var f libraryFigures
	for _, file := range files {
		f.files++
		if file.err != nil {
			t.Error(file.err)
			continue
		}
		for _, r := range file.results {
			for _, w := range r.Verdict.Warnings {
				f.warnings++
				t.Logf("warning: %s: %s", r.Document.Label(), w)
			}
			switch {
			case !r.Accepted():
				t.Errorf("not accepted: %s", r.Problem())
			case r.Skipped:
				f.skipped++
			case IsRuntime(r.Document):
				f.runtimes++
			default:
				f.trainJobs++
			}
		}
	}
	if f.runtimes+f.trainJobs == 0 {
		t.Errorf("no TrainJob or runtime under %s: the run proves nothing", strings.Join(dirs, ", "))
	}
	return f
}

// TestWebhooks runs the trainer's webhooks on the upstream corpus (the control: it must come out as
// the release has it) and on every trainer document the tests and the examples emitted.
func TestWebhooks(t *testing.T) {
	checker, _ := newChecker(t)
	up := checkUpstream(t, checker)
	lib := checkLibrary(t, checker)
	t.Logf("library: %d manifest files with trainer documents; %d runtimes skipped by the webhooks' objectSelector (%s: disabled); %d warnings",
		lib.files, lib.skipped, WebhookValidationLabel, lib.warnings)
	t.Logf("upstream: %d runtimes skipped by the objectSelector", up.skipped)
	summary := fmt.Sprintf("trainer webhooks: %d runtimes, %d trainjobs accepted; upstream corpus: %d accepted, %d rejected as upstream does",
		lib.runtimes, lib.trainJobs, up.accepted, up.rejected)
	t.Log(summary)
	fmt.Println(summary)
}
