package trainer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	sigsjson "sigs.k8s.io/json"

	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
	"github.com/kubeflow/trainer/v2/pkg/constants"
	jobruntime "github.com/kubeflow/trainer/v2/pkg/runtime"
)

// Built is what the TrainJob controller of Trainer v2.3.0 applies for one TrainJob, with the
// runtime it was built from.
type Built struct {
	TrainJob *trainer.TrainJob
	// Runtime is the runtime's spec as the cluster holds it (before the job's patches).
	Runtime trainer.TrainingRuntimeSpec
	JobSet  *jobsetv1alpha2.JobSet
	// Hostfile is the MPI plugin's hostfile ConfigMap (MPI runtimes only).
	Hostfile *corev1.ConfigMap
	// FluxEntrypoint is the Flux plugin's entrypoint ConfigMap (Flux runtimes only).
	FluxEntrypoint *corev1.ConfigMap
}

// fluxEntrypointSuffix names the Flux plugin's ConfigMap (pkg/runtime/framework/plugins/flux, Build).
const fluxEntrypointSuffix = "-flux-entrypoint"

// runtimeSnapshotSuffix names the ConfigMap NewObjects keeps the runtime in (pkg/runtime/core,
// snapshot.go): it is removed after each build, since each TrainJob the oracle builds is new to
// the cluster (two input files may hold jobs of one name).
const runtimeSnapshotSuffix = "-runtime-snapshot"

// Build runs what the TrainJob controller runs on a new TrainJob (pkg/controller,
// reconcileObjects): the runtime its runtimeRef names, from the trainer's runtime registry, builds
// the objects through NewObjects (the runtime's info, the ML policy plugins, then the component
// builders: the JobSet plugin's Build with its builder, the MPI plugin's ConfigMap and Secret).
// object is the TrainJob as the API server stores it (after the CRD defaults and the defaulting
// webhook).
func (c *Cluster) Build(ctx context.Context, object []byte, namespace string) (*Built, error) {
	job := &trainer.TrainJob{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(object, job); err != nil {
		return nil, fmt.Errorf("the stored TrainJob does not decode: %w", err)
	}
	job.Namespace = namespace
	// The owner references of what the controller builds name the job's UID.
	job.UID = types.UID("oracle-" + namespace + "-" + job.Name)
	key := jobruntime.RuntimeRefToRuntimeRegistryKey(job.Spec.RuntimeRef)
	rt, ok := c.runtimes[key]
	if !ok {
		return nil, fmt.Errorf("unsupported runtime: %s", key)
	}
	built := &Built{TrainJob: job.DeepCopy()}
	switch kind := ptrString(job.Spec.RuntimeRef.Kind); kind {
	case trainer.ClusterTrainingRuntimeKind:
		var r trainer.ClusterTrainingRuntime
		if err := c.client.Get(ctx, client.ObjectKey{Name: job.Spec.RuntimeRef.Name}, &r); err != nil {
			return nil, err
		}
		built.Runtime = r.Spec
	case trainer.TrainingRuntimeKind:
		var r trainer.TrainingRuntime
		if err := c.client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: job.Spec.RuntimeRef.Name}, &r); err != nil {
			return nil, err
		}
		built.Runtime = r.Spec
	default:
		return nil, fmt.Errorf("runtimeRef kind %q", kind)
	}
	// NewObjects may change the job it is given (the torchtune command); the controller's copy
	// is its own too.
	objects, err := newObjects(ctx, rt, job.DeepCopy())
	snapshot := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: job.Name + runtimeSnapshotSuffix}}
	if err := client.IgnoreNotFound(c.client.Delete(ctx, snapshot)); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("the TrainJob controller cannot build the job's objects: %w", err)
	}
	for _, o := range objects {
		raw, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, err
		}
		switch {
		case meta.Kind == "JobSet":
			built.JobSet = &jobsetv1alpha2.JobSet{}
			if err := json.Unmarshal(raw, built.JobSet); err != nil {
				return nil, err
			}
		case meta.Kind == "ConfigMap" && strings.HasSuffix(meta.Metadata.Name, constants.MPIHostfileConfigMapSuffix):
			built.Hostfile = &corev1.ConfigMap{}
			if err := json.Unmarshal(raw, built.Hostfile); err != nil {
				return nil, err
			}
		case meta.Kind == "ConfigMap" && strings.HasSuffix(meta.Metadata.Name, fluxEntrypointSuffix):
			built.FluxEntrypoint = &corev1.ConfigMap{}
			if err := json.Unmarshal(raw, built.FluxEntrypoint); err != nil {
				return nil, err
			}
		}
	}
	if built.JobSet == nil {
		return nil, fmt.Errorf("the runtime built no JobSet")
	}
	return built, nil
}

func ptrString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// newObjects is the runtime's NewObjects with a panic turned into an error, as controller-runtime
// recovers a reconciler's panic (RecoverPanic, on by default): the TrainJob stays unbuilt and never
// runs. Trainer v2.3.0's flux plugin, for one, reads spec.trainer.env of a job that has no trainer.
func newObjects(ctx context.Context, rt jobruntime.Runtime, job *trainer.TrainJob) (objects []apiruntime.ApplyConfiguration, err error) {
	defer func() {
		if r := recover(); r != nil {
			objects, err = nil, fmt.Errorf("the TrainJob controller panics building it (controller-runtime recovers, the job is never built): %v", r)
		}
	}()
	return rt.NewObjects(ctx, job)
}
