package kubeflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/go-logr/logr"
	"github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	fakeclientset "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	fakeclient "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	sigsjson "sigs.k8s.io/json"

	trainingoperator "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	operatorconfig "github.com/kubeflow/training-operator/pkg/config"
	"github.com/kubeflow/training-operator/pkg/controller.v1/common"
	"github.com/kubeflow/training-operator/pkg/controller.v1/control"
	"github.com/kubeflow/training-operator/pkg/controller.v1/jax"
	"github.com/kubeflow/training-operator/pkg/controller.v1/mpi"
	paddle "github.com/kubeflow/training-operator/pkg/controller.v1/paddlepaddle"
	"github.com/kubeflow/training-operator/pkg/controller.v1/pytorch"
	"github.com/kubeflow/training-operator/pkg/controller.v1/tensorflow"
	"github.com/kubeflow/training-operator/pkg/controller.v1/xgboost"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// DerivedController names the training operator in the derived-object records (contract C1).
const DerivedController = "training-operator"

// The objects the training operator creates from a v1 job, built by the operator's own code: the
// job's reconciler (pkg/controller.v1/<framework>, as NewReconciler builds it for the manager) runs
// one Reconcile on a controller-runtime fake client holding the job, with its pod and service
// control (and the MPI controller's clientset) on a client-go fake clientset. Every Pod and
// Service the reconciler creates there is collected: names, labels, annotations, the env and init
// containers the framework adds (PET_*, MASTER_ADDR, TF_CONFIG, DMLC_*, PADDLE_*, the MPI launcher's
// kubectl-delivery and hostfile volumes), the ports, restart policy and scheduler name.

// The operator's flags at their defaults (cmd/training-operator.v1/main.go): the init container
// images and the PyTorch init container's retries; no gang scheduler.
func init() {
	operatorconfig.Config.PyTorchInitContainerImage = operatorconfig.PyTorchInitContainerImageDefault
	operatorconfig.Config.PyTorchInitContainerTemplateFile = operatorconfig.PyTorchInitContainerTemplateFileDefault
	operatorconfig.Config.PyTorchInitContainerMaxTries = operatorconfig.PyTorchInitContainerMaxTriesDefault
	operatorconfig.Config.MPIKubectlDeliveryImage = operatorconfig.MPIKubectlDeliveryImageDefault
	// The reconcilers log every step through logrus and controller-runtime's logger; the figures
	// are the output here.
	logrus.SetOutput(io.Discard)
	ctrl.SetLogger(logr.Discard())
}

// operatorScheme is the manager's scheme (cmd/training-operator.v1/main.go): client-go's types
// and the kubeflow.org/v1 jobs with their defaulting functions, which Reconcile applies.
var operatorScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(trainingoperator.AddToScheme(s))
	return s
}()

// reconcilerOf builds a kind's reconciler the way its NewReconciler does for the manager, and
// returns it with its job controller (to swap in the fake clientset).
type reconcilerOf func(manager.Manager) (reconciler, *common.JobController)

type reconciler interface {
	Reconcile(context.Context, ctrl.Request) (ctrl.Result, error)
}

// reconcilers lists the kinds the operator reconciles (pkg/controller.v1/register_controller.go).
var reconcilers = map[string]reconcilerOf{
	trainingoperator.PyTorchJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := pytorch.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
	trainingoperator.TFJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := tensorflow.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
	trainingoperator.XGBoostJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := xgboost.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
	trainingoperator.MPIJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := mpi.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
	trainingoperator.PaddleJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := paddle.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
	trainingoperator.JAXJobKind: func(m manager.Manager) (reconciler, *common.JobController) {
		r := jax.NewReconciler(m, common.GenNonGangSchedulerSetupFunc())
		return r, &r.JobController
	},
}

// jobObjects makes an empty object of each reconciled kind, to decode a document into.
var jobObjects = map[string]func() client.Object{
	trainingoperator.PyTorchJobKind: func() client.Object { return &trainingoperator.PyTorchJob{} },
	trainingoperator.TFJobKind:      func() client.Object { return &trainingoperator.TFJob{} },
	trainingoperator.XGBoostJobKind: func() client.Object { return &trainingoperator.XGBoostJob{} },
	trainingoperator.MPIJobKind:     func() client.Object { return &trainingoperator.MPIJob{} },
	trainingoperator.PaddleJobKind:  func() client.Object { return &trainingoperator.PaddleJob{} },
	trainingoperator.JAXJobKind:     func() client.Object { return &trainingoperator.JAXJob{} },
}

// fakeManager hands NewReconciler the fake client, the scheme, a recorder that drops events and
// a rest config no request is sent to (NewReconciler builds a clientset and a PriorityClass
// informer from it; the clientset is replaced before Reconcile, the informer is never started).
// Every other manager method is unused by NewReconciler and left to the nil interface.
type fakeManager struct {
	manager.Manager
	client client.Client
}

func (m fakeManager) GetClient() client.Client                        { return m.client }
func (m fakeManager) GetAPIReader() client.Reader                     { return m.client }
func (m fakeManager) GetScheme() *runtime.Scheme                      { return operatorScheme }
func (m fakeManager) GetConfig() *rest.Config                         { return &rest.Config{Host: "http://127.0.0.1:1"} }
func (m fakeManager) GetEventRecorderFor(string) record.EventRecorder { return &record.FakeRecorder{} }

// Reconciled says whether the training operator reconciles the document's kind.
func Reconciled(d corpus.Document) bool {
	_, ok := reconcilers[d.Kind()]
	return ok && d.APIVersion() == corpus.JobGroup
}

// BuildDerived runs the kind's reconciler once on the job and returns the Pods and Services it
// creates, as records from `from`.
//
// The job is reconciled as the operator meets it once it may run: runPolicy.suspend is cleared
// (a suspended job has no pods until Kueue or the user resumes it, and then gets these) and
// runPolicy.managedBy is cleared (a job managed by MultiKueue is reconciled by the same operator
// on the worker cluster). Other objects the reconcilers create (the PyTorch elastic HPA, the MPI
// launcher's ConfigMap, ServiceAccount, Role and RoleBinding) are not records: the library writes
// none of their fields.
func BuildDerived(d corpus.Document, from string) ([]corpus.Derived, error) {
	newReconciler, ok := reconcilers[d.Kind()]
	if !ok || d.APIVersion() != corpus.JobGroup {
		return nil, nil
	}
	raw, err := corpus.JSON(d.Object)
	if err != nil {
		return nil, err
	}
	job := jobObjects[d.Kind()]()
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, job); err != nil {
		return nil, fmt.Errorf("does not decode as %s: %v", d.Kind(), err)
	}
	if job.GetNamespace() == "" {
		job.SetNamespace("default")
	}
	job.SetUID(types.UID("job-" + job.GetName()))
	job.SetCreationTimestamp(metav1.Now())
	runnable(job)

	crClient := fakeclient.NewClientBuilder().WithScheme(operatorScheme).WithObjects(job).WithStatusSubresource(job).Build()
	clientset := fakeclientset.NewClientset()
	// What the reconciler creates through the clientset is also stored in the controller-runtime
	// client, from which it reads (the MPI controller looks its launcher and workers up there).
	clientset.PrependReactor("create", "*", func(action k8stesting.Action) (bool, runtime.Object, error) {
		created := action.(k8stesting.CreateAction).GetObject().DeepCopyObject().(client.Object)
		_ = crClient.Create(context.Background(), created)
		return false, nil, nil
	})
	r, jc := newReconciler(fakeManager{client: crClient})
	jc.KubeClientSet = clientset
	jc.PodControl = control.RealPodControl{KubeClient: clientset, Recorder: &record.FakeRecorder{}}
	jc.ServiceControl = control.RealServiceControl{KubeClient: clientset, Recorder: &record.FakeRecorder{}}

	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: job.GetNamespace(), Name: job.GetName()}}
	if err := reconcileOnce(r, req); err != nil {
		return nil, fmt.Errorf("%s reconciler: %v", d.Kind(), err)
	}

	var out []corpus.Derived
	for _, action := range clientset.Actions() {
		create, ok := action.(k8stesting.CreateAction)
		if !ok {
			continue
		}
		var kind string
		switch create.GetObject().(type) {
		case *corev1.Pod:
			kind = "Pod"
		case *corev1.Service:
			kind = "Service"
		default:
			continue
		}
		object, err := v1Data(create.GetObject(), kind)
		if err != nil {
			return nil, err
		}
		if service, ok := create.GetObject().(*corev1.Service); ok {
			stableServicePorts(service, object)
		}
		// The pod and service control leave the namespace to the request, as the API server does.
		if meta := corpus.Map(object["metadata"]); meta["namespace"] == nil || meta["namespace"] == "" {
			meta["namespace"] = create.GetNamespace()
		}
		out = append(out, corpus.Derived{Controller: DerivedController, From: from, Kind: kind, Object: object})
	}
	sort.SliceStable(out, func(i, j int) bool { return derivedKey(out[i]) < derivedKey(out[j]) })
	return out, nil
}

// reconcileOnce runs one Reconcile; a panic is an error, as controller-runtime recovers it (the
// job then gets no pods), so one fuzz document cannot stop the run.
func reconcileOnce(r reconciler, req ctrl.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	_, err = r.Reconcile(context.Background(), req)
	return err
}

// stableServicePorts orders a Service's ports by name in its record. The operator ranges over a Go
// map of the container's ports (pkg/core/service.go GetPortsFromJob), so their order differs from
// run to run; validation does not depend on it beyond the index in a message, which must be stable
// for the records and the verdicts to be comparable.
func stableServicePorts(service *corev1.Service, object map[string]any) {
	ports := append([]corev1.ServicePort(nil), service.Spec.Ports...)
	sort.SliceStable(ports, func(i, j int) bool { return ports[i].Name < ports[j].Name })
	var data []any
	for _, p := range ports {
		raw, _ := json.Marshal(p)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		data = append(data, m)
	}
	if data != nil {
		corpus.Map(object["spec"])["ports"] = data
	}
}

// runnable clears what keeps the operator from creating the job's pods (see BuildDerived).
func runnable(job client.Object) {
	var policy *trainingoperator.RunPolicy
	switch j := job.(type) {
	case *trainingoperator.PyTorchJob:
		policy = &j.Spec.RunPolicy
	case *trainingoperator.TFJob:
		policy = &j.Spec.RunPolicy
	case *trainingoperator.XGBoostJob:
		policy = &j.Spec.RunPolicy
	case *trainingoperator.MPIJob:
		policy = &j.Spec.RunPolicy
	case *trainingoperator.PaddleJob:
		policy = &j.Spec.RunPolicy
	case *trainingoperator.JAXJob:
		policy = &j.Spec.RunPolicy
	}
	policy.Suspend = nil
	policy.ManagedBy = nil
}

// v1Data turns a typed object into v1 JSON-shaped data with its apiVersion and kind.
func v1Data(obj runtime.Object, kind string) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, err
	}
	data["apiVersion"], data["kind"] = "v1", kind
	delete(data, "status")
	return data, nil
}

func derivedKey(d corpus.Derived) string {
	name, _ := corpus.Map(d.Object["metadata"])["name"].(string)
	return d.Kind + "/" + name
}
