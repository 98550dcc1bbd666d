// Kubeflow Trainer v2 through the Go module that jsii-pacmak built: a platform team's
// ClusterTrainingRuntime with a TrainJob on it, a TrainJob on a built-in runtime with initializers,
// and a job the library refuses. The helpers at, byKey, number and toString are pytorch_test.go's.
package bindings

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-kubeflow/cdk8s-kubeflow-go/cdk8skubeflow"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2"
)

const torchImage = "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"

// newTorchRuntime is the platform team's runtime: torch on 8-GPU nodes, 32 GiB of shared memory,
// the restricted Pod Security Standard.
func newTorchRuntime(chart cdk8s.Chart) cdk8skubeflow.ClusterTrainingRuntime {
	return cdk8skubeflow.NewClusterTrainingRuntime(chart, jsii.String("torch-h100"), &cdk8skubeflow.TrainingRuntimeProps{
		Metadata:     &cdk8s.ApiObjectMetadata{Name: jsii.String("torch-h100")},
		MlPolicy:     cdk8skubeflow.MlPolicy_Torch(),
		NumNodes:     jsii.Number(2),
		Image:        jsii.String(torchImage),
		Resources:    &cdk8skubeflow.Resources{Accelerator: cdk8skubeflow.Accelerator_Nvidia(jsii.Number(8))},
		SharedMemory: cdk8s.Size_Gibibytes(jsii.Number(32)),
		Security:     cdk8skubeflow.PodSecurity_RESTRICTED(),
	})
}

// kinds lists the kind of each document.
func kinds(docs []interface{}) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.(object)["kind"].(string))
	}
	return out
}

func TestPlatformRuntimeAndTrainJob(t *testing.T) {
	app := cdk8s.Testing_App(nil)
	// The team's chart comes first in the app; the platform chart's namespace is one the
	// cluster-scoped runtime leaves out.
	team := cdk8s.NewChart(app, jsii.String("team"), &cdk8s.ChartProps{Namespace: jsii.String("team-nlp")})
	platform := cdk8s.NewChart(app, jsii.String("platform"), &cdk8s.ChartProps{Namespace: jsii.String("platform")})
	runtime := newTorchRuntime(platform)
	job := cdk8skubeflow.NewTrainJob(team, jsii.String("llama-sft"), &cdk8skubeflow.TrainJobProps{
		Metadata:       &cdk8s.ApiObjectMetadata{Name: jsii.String("llama-sft")},
		Runtime:        runtime.Ref(),
		Command:        jsii.Strings("torchrun", "/workspace/sft.py"),
		NumNodes:       jsii.Number(4),
		NumProcPerNode: jsii.Number(8),
		ResourcesPerNode: &cdk8skubeflow.Resources{
			Accelerator: cdk8skubeflow.Accelerator_Nvidia(jsii.Number(8)),
			Cpu:         cdk8splus28.Cpu_Units(jsii.Number(32)),
			Memory:      cdk8s.Size_Gibibytes(jsii.Number(256)),
		},
		Queue: jsii.String("team-nlp"),
	})
	app.Synth()

	entries, err := os.ReadDir(*app.Outdir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	files := map[string][]interface{}{}
	for _, e := range entries {
		names = append(names, e.Name())
		files[e.Name()] = *cdk8s.Yaml_Load(jsii.String(filepath.Join(*app.Outdir(), e.Name())))
	}
	sort.Strings(names)

	t.Run("the runtime is written before the job", func(t *testing.T) {
		// The job's dependency on the runtime puts the runtime's chart first, with the index cdk8s
		// prefixes to the files of dependent charts.
		var charts []string
		for _, c := range *app.Charts() {
			charts = append(charts, *c.Node().Id())
		}
		if want := []string{"platform", "team"}; !reflect.DeepEqual(charts, want) {
			t.Errorf("charts = %v, want %v", charts, want)
		}
		if want := []string{"0000-platform.k8s.yaml", "0001-team.k8s.yaml"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("files = %v, want %v", names, want)
		}
		if got := kinds(files["0000-platform.k8s.yaml"]); !reflect.DeepEqual(got, []string{"ClusterTrainingRuntime"}) {
			t.Errorf("0000-platform.k8s.yaml holds %v", got)
		}
		if got := kinds(files["0001-team.k8s.yaml"]); !reflect.DeepEqual(got, []string{"TrainJob"}) {
			t.Errorf("0001-team.k8s.yaml holds %v", got)
		}
	})
	if len(files["0000-platform.k8s.yaml"]) != 1 || len(files["0001-team.k8s.yaml"]) != 1 {
		t.FailNow()
	}
	runtimeDoc := files["0000-platform.k8s.yaml"][0].(object)
	jobDoc := files["0001-team.k8s.yaml"][0].(object)

	t.Run("runtime policy and metadata", func(t *testing.T) {
		if got := at(t, runtimeDoc, "apiVersion"); got != "trainer.kubeflow.org/v1alpha1" {
			t.Errorf("apiVersion = %v", got)
		}
		want := object{"name": "torch-h100", "labels": object{"trainer.kubeflow.org/framework": "torch"}}
		if got := at(t, runtimeDoc, "metadata"); !reflect.DeepEqual(got, want) {
			t.Errorf("metadata = %v, want %v (no namespace)", got, want)
		}
		policy := at(t, runtimeDoc, "spec", "mlPolicy").(object)
		if len(policy) != 2 || number(t, policy["numNodes"]) != 2 || !reflect.DeepEqual(policy["torch"], object{}) {
			t.Errorf("mlPolicy = %v, want numNodes: 2, torch: {}", policy)
		}
	})

	jobs := at(t, runtimeDoc, "spec", "template", "spec", "replicatedJobs").([]interface{})
	if len(jobs) != 1 || at(t, jobs[0], "name") != "node" {
		t.Fatalf("replicated jobs = %v, want only node", jobs)
	}
	pod := at(t, jobs[0], "template", "spec", "template", "spec").(object)
	containers := at(t, pod, "containers").([]interface{})
	if len(containers) != 1 || at(t, containers[0], "name") != "node" {
		t.Fatalf("containers = %v, want only node", containers)
	}
	container := containers[0].(object)

	t.Run("runtime node GPUs and shared memory", func(t *testing.T) {
		if container["image"] != torchImage {
			t.Errorf("image = %v", container["image"])
		}
		limits := at(t, container, "resources", "limits").(object)
		if len(limits) != 1 || number(t, limits["nvidia.com/gpu"]) != 8 {
			t.Errorf("limits = %v, want nvidia.com/gpu: 8", limits)
		}
		if requests := at(t, container, "resources", "requests"); !reflect.DeepEqual(requests, object(limits)) {
			t.Errorf("requests = %v, want %v", requests, limits)
		}
		shm := byKey(t, container["volumeMounts"], "mountPath")["/dev/shm"]
		volume := byKey(t, at(t, pod, "volumes"), "name")[shm["name"].(string)]
		want := object{"medium": "Memory", "sizeLimit": "32768Mi"}
		if got := at(t, volume, "emptyDir"); !reflect.DeepEqual(got, want) {
			t.Errorf("/dev/shm emptyDir = %v, want %v", got, want)
		}
	})

	t.Run("runtime restricted security", func(t *testing.T) {
		seccomp := object{"type": "RuntimeDefault"}
		if got, want := at(t, pod, "securityContext"), (object{"runAsNonRoot": true, "seccompProfile": seccomp}); !reflect.DeepEqual(got, want) {
			t.Errorf("pod securityContext = %v, want %v", got, want)
		}
		want := object{
			"allowPrivilegeEscalation": false,
			"capabilities":             object{"drop": []interface{}{"ALL"}},
			"privileged":               false,
			"runAsNonRoot":             true,
			"seccompProfile":           seccomp,
		}
		if got := at(t, container, "securityContext"); !reflect.DeepEqual(got, want) {
			t.Errorf("container securityContext = %v, want %v", got, want)
		}
	})

	t.Run("the job on the runtime", func(t *testing.T) {
		want := object{"name": "llama-sft", "namespace": "team-nlp", "labels": object{"kueue.x-k8s.io/queue-name": "team-nlp"}}
		if got := at(t, jobDoc, "metadata"); !reflect.DeepEqual(got, want) {
			t.Errorf("metadata = %v, want %v", got, want)
		}
		ref := object{"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": "torch-h100"}
		if got := at(t, jobDoc, "spec", "runtimeRef"); !reflect.DeepEqual(got, ref) {
			t.Errorf("runtimeRef = %v, want %v", got, ref)
		}
		trainer := at(t, jobDoc, "spec", "trainer").(object)
		if got := trainer["command"]; !reflect.DeepEqual(got, []interface{}{"torchrun", "/workspace/sft.py"}) {
			t.Errorf("command = %v", got)
		}
		if number(t, trainer["numNodes"]) != 4 || number(t, trainer["numProcPerNode"]) != 8 {
			t.Errorf("numNodes, numProcPerNode = %v, %v; want 4, 8", trainer["numNodes"], trainer["numProcPerNode"])
		}
		limits := at(t, trainer, "resourcesPerNode", "limits").(object)
		if len(limits) != 3 || limits["cpu"] != "32" || limits["memory"] != "256Gi" || number(t, limits["nvidia.com/gpu"]) != 8 {
			t.Errorf("limits = %v, want cpu 32, memory 256Gi, nvidia.com/gpu 8", limits)
		}
		if requests := at(t, trainer, "resourcesPerNode", "requests"); !reflect.DeepEqual(requests, object(limits)) {
			t.Errorf("requests = %v, want %v", requests, limits)
		}
	})

	t.Run("Go accessors", func(t *testing.T) {
		if *runtime.Name() != "torch-h100" || !reflect.DeepEqual(*runtime.ReplicatedJobNames(), []*string{jsii.String("node")}) {
			t.Errorf("Name(), ReplicatedJobNames() = %v, %v", *runtime.Name(), *runtime.ReplicatedJobNames())
		}
		if *runtime.MlPolicy().Framework() != "torch" || *runtime.MlPolicy().IsMpi() {
			t.Errorf("MlPolicy() = %v (mpi %v)", *runtime.MlPolicy().Framework(), *runtime.MlPolicy().IsMpi())
		}
		if *runtime.Nodes().Accelerator().Count() != 8 {
			t.Errorf("Nodes().Accelerator().Count() = %v", *runtime.Nodes().Accelerator().Count())
		}
		if runtime.Launcher() != nil || runtime.DatasetInitializer() != nil {
			t.Errorf("a torch runtime without steps has a launcher or a dataset initializer")
		}
		if *job.Runtime().Kind() != "ClusterTrainingRuntime" || *job.Runtime().Name() != "torch-h100" || *job.Name() != "llama-sft" {
			t.Errorf("Runtime() = %v %v, Name() = %v", *job.Runtime().Kind(), *job.Runtime().Name(), *job.Name())
		}
		// The dependency that writes the runtime first, on the job's API object.
		var deps []string
		for _, d := range *job.ApiObject().Node().Dependencies() {
			deps = append(deps, *d.Node().Path())
		}
		if want := []string{"platform/torch-h100/Resource"}; !reflect.DeepEqual(deps, want) {
			t.Errorf("dependencies = %v, want %v", deps, want)
		}
	})
}

func TestTrainJobOnABuiltInRuntimeWithInitializers(t *testing.T) {
	chart := cdk8s.NewChart(cdk8s.Testing_App(nil), jsii.String("tune"), &cdk8s.ChartProps{Namespace: jsii.String("team-nlp")})
	job := cdk8skubeflow.NewTrainJob(chart, jsii.String("alpaca"), &cdk8skubeflow.TrainJobProps{
		Metadata:           &cdk8s.ApiObjectMetadata{Name: jsii.String("alpaca")},
		Runtime:            cdk8skubeflow.TrainingRuntimeRef_Cluster(jsii.String("torchtune-llama3.2-1b")),
		DatasetInitializer: &cdk8skubeflow.TrainJobInitializer{StorageUri: jsii.String("hf://tatsu-lab/alpaca")},
		ModelInitializer: &cdk8skubeflow.TrainJobInitializer{
			StorageUri: jsii.String("hf://meta-llama/Llama-3.2-1B-Instruct"),
			Secret:     cdk8splus28.Secret_FromSecretName(chart, jsii.String("HfToken"), jsii.String("hf-token")),
			Env:        &map[string]cdk8splus28.EnvValue{"HF_HUB_DISABLE_PROGRESS_BARS": cdk8splus28.EnvValue_FromValue(jsii.String("1"))},
		},
		ResourcesPerNode: &cdk8skubeflow.Resources{Accelerator: cdk8skubeflow.Accelerator_Nvidia(jsii.Number(2))},
	})

	manifests := *cdk8s.Testing_Synth(chart)
	if len(manifests) != 1 {
		t.Fatalf("expected 1 manifest, got %d", len(manifests))
	}
	manifest := manifests[0].(object)
	if manifest["kind"] != "TrainJob" {
		t.Errorf("kind = %v", manifest["kind"])
	}
	if got, want := manifest["metadata"], (object{"name": "alpaca", "namespace": "team-nlp"}); !reflect.DeepEqual(got, want) {
		t.Errorf("metadata = %v, want %v", got, want)
	}
	gpus := object{"nvidia.com/gpu": float64(2)}
	want := object{
		"runtimeRef": object{"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime", "name": "torchtune-llama3.2-1b"},
		"initializer": object{
			"dataset": object{"storageUri": "hf://tatsu-lab/alpaca"},
			"model": object{
				"storageUri": "hf://meta-llama/Llama-3.2-1B-Instruct",
				"env":        []interface{}{object{"name": "HF_HUB_DISABLE_PROGRESS_BARS", "value": "1"}},
				"secretRef":  object{"name": "hf-token"},
			},
		},
		"trainer": object{"resourcesPerNode": object{"limits": gpus, "requests": gpus}},
		// The built-in runtime's pods have no tolerations: the GPU taint's, as on a v1 job, by the patch.
		"runtimePatches": []interface{}{object{
			"manager": "cdk8s-kubeflow/train-job",
			"trainingRuntimeSpec": object{"template": object{"spec": object{"replicatedJobs": []interface{}{object{
				"name": "node",
				"template": object{"spec": object{"template": object{"spec": object{
					"tolerations": []interface{}{object{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}},
				}}}},
			}}}}},
		}},
	}
	if got := manifest["spec"]; !reflect.DeepEqual(got, want) {
		t.Errorf("spec = %v,\nwant %v", got, want)
	}
	// A runtime by name: nothing of the app to depend on.
	if *job.Runtime().Name() != "torchtune-llama3.2-1b" || len(*job.ApiObject().Node().Dependencies()) != 0 {
		t.Errorf("Runtime().Name() = %v, dependencies = %v", *job.Runtime().Name(), *job.ApiObject().Node().Dependencies())
	}
}

// More processes per node than the GPUs of the app's runtime: the check reads the runtime through
// the reference the Go code passed back, and synthesis reports it.
func TestMoreProcessesThanTheRuntimesGPUsIsRefused(t *testing.T) {
	app := cdk8s.Testing_App(nil)
	chart := cdk8s.NewChart(app, jsii.String("bad"), nil)
	runtime := newTorchRuntime(chart)
	cdk8skubeflow.NewTrainJob(chart, jsii.String("job"), &cdk8skubeflow.TrainJobProps{
		Runtime:        runtime.Ref(),
		NumProcPerNode: jsii.Number(16),
	})
	defer func() {
		// The library's message, with the "Error: " the jsii kernel puts before an error thrown in a
		// method call (it rethrows the error's string form; a constructor's error keeps its message).
		want := "Error: Validation failed with the following errors:\n" +
			"  [bad/job] numProcPerNode is 16; expected at most the 8 accelerators per node (one process per device)"
		if got := toString(recover()); got != want {
			t.Errorf("panic = %q,\nwant %q", got, want)
		}
	}()
	app.Synth()
}
