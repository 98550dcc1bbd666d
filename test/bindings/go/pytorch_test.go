// DistributedPyTorch through the Go module that jsii-pacmak built (dist-packages/go).
package bindings

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-kubeflow/cdk8s-kubeflow-go/cdk8skubeflow"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2"
)

func TestMain(m *testing.M) {
	code := m.Run()
	jsii.Close()
	os.Exit(code)
}

type object = map[string]interface{}

func synthJob(t *testing.T) (cdk8skubeflow.DistributedPyTorch, object) {
	t.Helper()
	app := cdk8s.Testing_App(nil)
	chart := cdk8s.NewChart(app, jsii.String("vision"), &cdk8s.ChartProps{Namespace: jsii.String("team-a")})
	job := cdk8skubeflow.NewDistributedPyTorch(chart, jsii.String("resnet"), &cdk8skubeflow.DistributedPyTorchProps{
		Metadata:     &cdk8s.ApiObjectMetadata{Name: jsii.String("resnet")},
		Image:        jsii.String("pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime"),
		Command:      jsii.Strings("torchrun", "/workspace/train.py"),
		Workers:      jsii.Number(2),
		Resources:    &cdk8skubeflow.Resources{Accelerator: cdk8skubeflow.Accelerator_Nvidia(jsii.Number(1))},
		SharedMemory: cdk8s.Size_Gibibytes(jsii.Number(4)),
		Queue:        jsii.String("team-a"),
	})
	claim := cdk8splus28.PersistentVolumeClaim_FromClaimName(chart, jsii.String("Imagenet"), jsii.String("imagenet"))
	dataset := cdk8splus28.Volume_FromPersistentVolumeClaim(chart, jsii.String("Dataset"), claim,
		&cdk8splus28.PersistentVolumeClaimVolumeOptions{ReadOnly: jsii.Bool(true)})
	job.Mount(jsii.String("/data"), dataset, &cdk8splus28.MountOptions{ReadOnly: jsii.Bool(true)})

	manifests := *cdk8s.Testing_Synth(chart)
	if len(manifests) != 1 {
		t.Fatalf("expected 1 manifest, got %d", len(manifests))
	}
	return job, manifests[0].(object)
}

func at(t *testing.T, node interface{}, path ...string) interface{} {
	t.Helper()
	for _, key := range path {
		m, ok := node.(object)
		if !ok {
			t.Fatalf("%s: not an object at %q", strings.Join(path, "."), key)
		}
		node, ok = m[key]
		if !ok {
			t.Fatalf("%s: missing %q", strings.Join(path, "."), key)
		}
	}
	return node
}

func byKey(t *testing.T, items interface{}, key string) map[string]object {
	t.Helper()
	out := map[string]object{}
	for _, item := range items.([]interface{}) {
		m := item.(object)
		out[m[key].(string)] = m
	}
	return out
}

func number(t *testing.T, value interface{}) float64 {
	t.Helper()
	n, ok := value.(float64)
	if !ok {
		t.Fatalf("expected a number, got %#v", value)
	}
	return n
}

var roles = []string{"Master", "Worker"}

func TestDistributedPyTorch(t *testing.T) {
	job, manifest := synthJob(t)

	t.Run("kind and replicas", func(t *testing.T) {
		if at(t, manifest, "kind") != "PyTorchJob" || at(t, manifest, "apiVersion") != "kubeflow.org/v1" {
			t.Errorf("unexpected kind %v/%v", manifest["apiVersion"], manifest["kind"])
		}
		if at(t, manifest, "metadata", "name") != "resnet" || at(t, manifest, "metadata", "namespace") != "team-a" {
			t.Errorf("unexpected metadata %v", manifest["metadata"])
		}
		if n := number(t, at(t, manifest, "spec", "pytorchReplicaSpecs", "Master", "replicas")); n != 1 {
			t.Errorf("Master replicas = %v, want 1", n)
		}
		if n := number(t, at(t, manifest, "spec", "pytorchReplicaSpecs", "Worker", "replicas")); n != 2 {
			t.Errorf("Worker replicas = %v, want 2", n)
		}
	})

	for _, role := range roles {
		pod := at(t, manifest, "spec", "pytorchReplicaSpecs", role, "template", "spec")
		containers := at(t, pod, "containers").([]interface{})
		if len(containers) != 1 {
			t.Fatalf("%s: %d containers, want 1", role, len(containers))
		}
		container := containers[0].(object)
		mounts := byKey(t, container["volumeMounts"], "mountPath")
		volumes := byKey(t, at(t, pod, "volumes"), "name")

		t.Run(role+" GPU limits equal requests", func(t *testing.T) {
			limits := at(t, container, "resources", "limits").(object)
			if len(limits) != 1 || number(t, limits["nvidia.com/gpu"]) != 1 {
				t.Errorf("limits = %v, want nvidia.com/gpu: 1", limits)
			}
			if requests := at(t, container, "resources", "requests"); !reflect.DeepEqual(requests, object(limits)) {
				t.Errorf("requests = %v, want %v", requests, limits)
			}
		})

		t.Run(role+" shared memory", func(t *testing.T) {
			shm := volumes[mounts["/dev/shm"]["name"].(string)]
			want := object{"medium": "Memory", "sizeLimit": "4096Mi"}
			if got := at(t, shm, "emptyDir"); !reflect.DeepEqual(got, want) {
				t.Errorf("/dev/shm emptyDir = %v, want %v", got, want)
			}
		})

		t.Run(role+" dataset read-only", func(t *testing.T) {
			data := mounts["/data"]
			if data["readOnly"] != true {
				t.Errorf("/data mount readOnly = %v, want true", data["readOnly"])
			}
			want := object{"claimName": "imagenet", "readOnly": true}
			if got := at(t, volumes[data["name"].(string)], "persistentVolumeClaim"); !reflect.DeepEqual(got, want) {
				t.Errorf("claim = %v, want %v", got, want)
			}
		})
	}

	t.Run("kueue label", func(t *testing.T) {
		if got := at(t, manifest, "metadata", "labels", "kueue.x-k8s.io/queue-name"); got != "team-a" {
			t.Errorf("queue label = %v, want team-a", got)
		}
	})

	t.Run("Go accessors", func(t *testing.T) {
		if *job.Name() != "resnet" {
			t.Errorf("Name() = %v", *job.Name())
		}
		if *job.Master().Replicas() != 1 || *job.Worker().Replicas() != 2 {
			t.Errorf("replicas = %v/%v", *job.Master().Replicas(), *job.Worker().Replicas())
		}
		if *job.Worker().Accelerator().ResourceName() != "nvidia.com/gpu" {
			t.Errorf("accelerator = %v", *job.Worker().Accelerator().ResourceName())
		}
		var types []string
		for _, g := range *job.ReplicaGroups() {
			types = append(types, *g.ReplicaType())
		}
		if !reflect.DeepEqual(types, roles) {
			t.Errorf("replica groups = %v, want %v", types, roles)
		}
	})
}

func TestValidationReachesGo(t *testing.T) {
	chart := cdk8s.NewChart(cdk8s.Testing_App(nil), jsii.String("bad"), nil)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(toString(r), "workers is -1") {
			t.Errorf("expected a panic naming workers is -1, got %v", r)
		}
	}()
	cdk8skubeflow.NewDistributedPyTorch(chart, jsii.String("job"), &cdk8skubeflow.DistributedPyTorchProps{
		Image:   jsii.String("pytorch/pytorch:2.5.0"),
		Workers: jsii.Number(-1),
	})
}

func toString(v interface{}) string {
	if err, ok := v.(error); ok {
		return err.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// The constructs module is imported for its type only, so that go.mod keeps requiring it directly.
var _ constructs.Construct = nil
