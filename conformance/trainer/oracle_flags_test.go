package trainer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestOracleFlags proves the oracle flags each kind of difference between what a TrainJob asks
// and what Trainer v2.3.0 builds, on small documents under testdata/oracle whose outcome is
// known from the release's code (each file says why in its comment).
func TestOracleFlags(t *testing.T) {
	checker, _ := newChecker(t)
	cases := map[string][]string{
		"mpi-launcher.yaml": {
			"ml/deepspeed: image [node]: asked example.com/deepspeed:1, built ghcr.io/kubeflow/trainer/deepspeed-runtime",
			"ml/mpi: image [node]: asked example.com/mpi:2, built example.com/mpi:base",
			"ml/mpi: limits[nvidia.com/gpu] [node]: asked 4, built none",
		},
		"jax-procs.yaml": {
			"ml/jax: processes per node [node]: asked 4, built 1",
			"ml/xgboost: processes per node [node]: asked 4, built 1",
		},
		"torch-accelerators.yaml": {
			"ml/gaudi: processes per node [node]: asked 8, built 64",
		},
		"workspace-mount.yaml": {
			"ml/mounted: runtime's mount /workspace [node]: asked volume initializer, built volume data",
		},
		"plugin-values.yaml": {
			"ml/own-keys: mount /home/mpiuser/.ssh [node]: asked volume keys, built volume mpi-ssh-auth",
		},
		"env-order.yaml": {
			`ml/env-order: env RUN_DIR [node]: asked "/data/run", built "$(BASE)/run"`,
			`ml/env-order: env RANK_TAG [node]: asked "rank-<valueFrom {\"fieldRef\":{\"fieldPath\":\"metadata.annotations['batch.kubernetes.io/job-completion-index']\"}}>", built "rank-$(PET_NODE_RANK)"`,
		},
	}
	for file, expected := range cases {
		t.Run(file, func(t *testing.T) {
			path, docs := oracleFixture(t, file)
			intents, err := LoadIntents(path)
			if err != nil {
				t.Fatal(err)
			}
			results, err := checker.Check(context.Background(), docs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range results {
				if !r.Accepted() {
					t.Fatalf("not accepted: %s", r.Problem())
				}
				if r.Document.Kind() != "TrainJob" {
					continue
				}
				if r.BuildError != nil {
					t.Fatalf("%s: %v", r.Document.Label(), r.BuildError)
				}
				intent, ok := intents[IntentKey(r.Built.TrainJob.Namespace, r.Built.TrainJob.Name)]
				if !ok {
					intent = DeriveIntent(r.Built.TrainJob)
				}
				for _, d := range Compare(intent, r.Built).Differences {
					got = append(got, d.String())
				}
			}
			if strings.Join(got, "\n") != strings.Join(expected, "\n") {
				t.Errorf("expected:\n  %s\ngot:\n  %s", strings.Join(expected, "\n  "), strings.Join(got, "\n  "))
			}
		})
	}
}

// oracleFixture reads one of the oracle's hand-written documents in testdata/oracle.
func oracleFixture(t *testing.T, file string) (string, []corpus.Document) {
	t.Helper()
	path := filepath.Join("testdata", "oracle", file)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := corpus.Decode(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	return path, docs
}
