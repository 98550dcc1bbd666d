package kubeflow

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	operatorconfig "github.com/kubeflow/training-operator/pkg/config"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// TestBuildDerived proves the reconcilers run: a suspended PyTorchJob with a master and two
// workers gets the pods and headless Services v1.9.4 creates, with the env and the init container
// the PyTorch controller adds; an MPIJob gets its launcher (with the kubectl-delivery init
// container, whose image is the release's default) and worker pods and no Service.
func TestBuildDerived(t *testing.T) {
	docs, err := corpus.Decode("fixture.yaml", []byte(`apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: bert, namespace: ml}
spec:
  runPolicy: {suspend: true}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers: [{name: pytorch, image: "train:1", ports: [{name: pytorchjob-port, containerPort: 23456}]}]
    Worker:
      replicas: 2
      restartPolicy: ExitCode
      template:
        spec:
          containers: [{name: pytorch, image: "train:1"}]
---
apiVersion: kubeflow.org/v1
kind: MPIJob
metadata: {name: hvd, namespace: ml}
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers: [{name: mpi, image: "hvd:1"}]
    Worker:
      replicas: 1
      template:
        spec:
          containers: [{name: mpi, image: "hvd:1"}]
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		built, err := BuildDerived(d, d.Label())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range built {
			got = append(got, describe(r))
		}
	}
	want := []string{
		"Pod ml/bert-master-0 restart=OnFailure init=[] env=[PYTHONUNBUFFERED=1 MASTER_PORT=23456 PET_MASTER_PORT=23456 MASTER_ADDR=bert-master-0 PET_MASTER_ADDR=bert-master-0 WORLD_SIZE=3 RANK=0 PET_NODE_RANK=0 PET_NPROC_PER_NODE=auto PET_NNODES=3]",
		"Pod ml/bert-worker-0 restart=Never init=[init-pytorch(alpine:3.10)] env=[PYTHONUNBUFFERED=1 MASTER_PORT=23456 PET_MASTER_PORT=23456 MASTER_ADDR=bert-master-0 PET_MASTER_ADDR=bert-master-0 WORLD_SIZE=3 RANK=1 PET_NODE_RANK=1 PET_NPROC_PER_NODE=auto PET_NNODES=3]",
		"Pod ml/bert-worker-1 restart=Never init=[init-pytorch(alpine:3.10)] env=[PYTHONUNBUFFERED=1 MASTER_PORT=23456 PET_MASTER_PORT=23456 MASTER_ADDR=bert-master-0 PET_MASTER_ADDR=bert-master-0 WORLD_SIZE=3 RANK=2 PET_NODE_RANK=2 PET_NPROC_PER_NODE=auto PET_NNODES=3]",
		"Service ml/bert-master-0 clusterIP=None ports=pytorchjob-port:23456",
		"Service ml/bert-worker-0 clusterIP=None ports=pytorchjob-port:23456",
		"Service ml/bert-worker-1 clusterIP=None ports=pytorchjob-port:23456",
		"Pod ml/hvd-launcher restart=Never init=[kubectl-delivery(" + operatorconfig.MPIKubectlDeliveryImageDefault + ")] env=[OMPI_MCA_plm_rsh_agent=/etc/mpi/kubexec.sh OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile NVIDIA_VISIBLE_DEVICES=<nil> NVIDIA_DRIVER_CAPABILITIES=<nil> I_MPI_HYDRA_BOOTSTRAP=rsh I_MPI_HYDRA_BOOTSTRAP_EXEC=/etc/mpi/kubexec.sh]",
		"Pod ml/hvd-worker-0 restart=Never init=[] env=[]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nexpected:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// describe summarises a derived object: kind, namespace/name, the pod's restart policy, init
// containers and main container env, or the Service's cluster IP and ports.
func describe(r corpus.Derived) string {
	meta := corpus.Map(r.Object["metadata"])
	spec := corpus.Map(r.Object["spec"])
	out := fmt.Sprintf("%s %s/%s", r.Kind, meta["namespace"], meta["name"])
	if r.Kind == "Service" {
		var ports []string
		for _, p := range corpus.Slice(spec["ports"]) {
			ports = append(ports, fmt.Sprintf("%v:%v", corpus.Map(p)["name"], corpus.Map(p)["port"]))
		}
		return fmt.Sprintf("%s clusterIP=%v ports=%s", out, spec["clusterIP"], strings.Join(ports, ","))
	}
	var inits, env []string
	for _, c := range corpus.Slice(spec["initContainers"]) {
		inits = append(inits, fmt.Sprintf("%v(%v)", corpus.Map(c)["name"], corpus.Map(c)["image"]))
	}
	for _, e := range corpus.Slice(corpus.Map(corpus.Slice(spec["containers"])[0])["env"]) {
		env = append(env, fmt.Sprintf("%v=%v", corpus.Map(e)["name"], corpus.Map(e)["value"]))
	}
	return fmt.Sprintf("%s restart=%v init=[%s] env=[%s]", out, spec["restartPolicy"], strings.Join(inits, " "), strings.Join(env, " "))
}

// TestDerivedFixtures builds the objects of the jobs in ../testdata/derived, whose derived objects
// Kubernetes refuses, and writes them to DERIVED_DIR/fixtures for kube/TestDerivedFixtures, which
// expects each refusal the fixture names.
func TestDerivedFixtures(t *testing.T) {
	docs, err := corpus.ReadDirs([]string{"../testdata/derived"})
	if err != nil {
		t.Fatal(err)
	}
	var derived []corpus.Derived
	for _, d := range docs {
		built, err := BuildDerived(d, d.Label())
		if err != nil {
			t.Fatalf("%s: %v", d.Label(), err)
		}
		if len(built) == 0 {
			t.Errorf("%s: the reconciler built nothing", d.Label())
		}
		derived = append(derived, built...)
	}
	if WritesDerived {
		if err := corpus.WriteDerived(corpus.DerivedFile(filepath.Join(corpus.DerivedDir(), "fixtures"), DerivedController), derived); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("derived fixtures: %d jobs, %d objects", len(docs), len(derived))
}
