// Package trainer runs the admission webhooks of Kubeflow Trainer v2 (github.com/kubeflow/trainer/v2
// v2.3.0, pkg/webhooks) on the TrainJobs, TrainingRuntimes and ClusterTrainingRuntimes the library
// emits, after the steps the API server takes on a custom resource (pruning and the CRD defaults),
// and those of JobSet (sigs.k8s.io/jobset v0.12.0, pkg/webhooks) on the JobSet a TrainJob builds.
//
// It is a module of its own because the trainer is built on k8s.io/* v0.36.2 and controller-runtime
// v0.24.1, and pulls jobset, scheduler-plugins and volcano's APIs: its build list stays as the
// release pins it, whatever the other conformance modules need.
package trainer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	jsonpatch "github.com/evanphx/json-patch/v5"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedulerpluginsv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	volcanov1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"

	configapi "github.com/kubeflow/trainer/v2/pkg/apis/config/v1alpha1"
	trainer "github.com/kubeflow/trainer/v2/pkg/apis/trainer/v1alpha1"
	jobruntime "github.com/kubeflow/trainer/v2/pkg/runtime"
	runtimecore "github.com/kubeflow/trainer/v2/pkg/runtime/core"
	"github.com/kubeflow/trainer/v2/pkg/webhooks"
)

// Paths the release's webhook configurations call (manifests/base/webhook/manifests.yaml); the
// TrainJob's mutating webhook runs before its validating one, as admission orders them.
const (
	mutateTrainJobPath                 = "/mutate-trainer-kubeflow-org-v1alpha1-trainjob"
	validateTrainJobPath               = "/validate-trainer-kubeflow-org-v1alpha1-trainjob"
	validateTrainingRuntimePath        = "/validate-trainer-kubeflow-org-v1alpha1-trainingruntime"
	validateClusterTrainingRuntimePath = "/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime"
)

// WebhookValidationLabel is the label whose value "disabled" keeps a runtime away from the runtime
// webhooks: the release's ValidatingWebhookConfiguration selects objects with it NotIn
// [disabled] for the ClusterTrainingRuntime and TrainingRuntime webhooks
// (manifests/base/webhook/patch_validating.yaml); the TrainJob webhooks select every object.
const WebhookValidationLabel = "trainer.kubeflow.org/webhook-validation"

// NewScheme registers the types the trainer's manager registers (cmd/trainer-controller-manager,
// init).
func NewScheme() *apiruntime.Scheme {
	scheme := apiruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(configapi.AddToScheme(scheme))
	utilruntime.Must(trainer.AddToScheme(scheme))
	utilruntime.Must(jobsetv1alpha2.AddToScheme(scheme))
	utilruntime.Must(schedulerpluginsv1alpha1.AddToScheme(scheme))
	utilruntime.Must(volcanov1beta1.AddToScheme(scheme))
	return scheme
}

// webhookManager stands in for the controller manager where the Trainer's and JobSet's
// pkg/webhooks register their handlers. The webhook builder of controller-runtime v0.24 asks a
// manager only for its scheme, its rest config and its webhook server (pkg/builder/webhook.go), and
// JobSet's setup for its client; any other method is the nil embedded interface and panics, so a
// webhook that came to need more would fail loudly here.
type webhookManager struct {
	manager.Manager
	scheme *apiruntime.Scheme
	server webhook.Server
	client client.Client
}

func (m *webhookManager) GetScheme() *apiruntime.Scheme    { return m.scheme }
func (m *webhookManager) GetWebhookServer() webhook.Server { return m.server }
func (m *webhookManager) GetConfig() *rest.Config          { return &rest.Config{} }

// GetClient serves the JobSet webhooks, which keep the manager's client (for the PVCs its volume
// claim policies look up); the Trainer's never ask for it.
func (m *webhookManager) GetClient() client.Client { return m.client }

// discardIndexer takes the field indexes the runtimes register. They serve the controllers' List
// calls by field; the webhook paths only Get objects, and the fake client would refuse a List on an
// index it does not have, so a webhook that came to list would fail loudly rather than pass.
type discardIndexer struct{}

func (discardIndexer) IndexField(context.Context, client.Object, string, client.IndexerFunc) error {
	return nil
}

// Cluster is the trainer's webhook server over a fake API server holding some objects: the
// runtimes a TrainJob may refer to and the PriorityClasses the Volcano plugin looks up.
type Cluster struct {
	scheme *apiruntime.Scheme
	mux    http.Handler
	// client is the fake API server; runtimes are the trainer's runtimes over it, by the registry
	// key of a runtimeRef (what the TrainJob controller looks a runtime up by), for the oracle.
	client   client.Client
	runtimes map[string]jobruntime.Runtime
}

// NewCluster builds the runtimes and the webhooks the way the trainer's manager does
// (cmd/trainer-controller-manager: config.Load without a file, runtimecore.New, webhooks.Setup),
// with a controller-runtime fake client holding the objects instead of the manager's cache.
func NewCluster(ctx context.Context, scheme *apiruntime.Scheme, objects []client.Object) (*Cluster, error) {
	options, cfg, err := loadConfig(scheme)
	if err != nil {
		return nil, fmt.Errorf("loading the trainer's default configuration: %w", err)
	}
	server := options.WebhookServer
	if server == nil {
		server = webhook.NewServer(webhook.Options{})
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).Build()
	runtimes, err := runtimecore.New(ctx, c, discardIndexer{}, &cfg)
	if err != nil {
		return nil, fmt.Errorf("initializing the trainer's runtimes: %w", err)
	}
	mgr := &webhookManager{scheme: scheme, server: server, client: c}
	if failed, err := webhooks.Setup(mgr, runtimes); err != nil {
		return nil, fmt.Errorf("setting up the %s webhook: %w", failed, err)
	}
	// The JobSet controller's webhooks, on the same server: their paths are JobSet's own.
	if err := setupJobSetWebhooks(mgr); err != nil {
		return nil, fmt.Errorf("setting up the JobSet webhooks: %w", err)
	}
	return &Cluster{scheme: scheme, mux: server.WebhookMux(), client: c, runtimes: runtimes}, nil
}

// Verdict is what the webhooks answered for one object.
type Verdict struct {
	// Webhook is the name of the webhook that denied the object ("" when all allowed it).
	Webhook string
	// Allowed is false when a webhook denied the object.
	Allowed bool
	// Message is the denying webhook's message.
	Message string
	// Warnings are the warnings of every webhook called.
	Warnings []string
	// Object is the object as the API server stores it when allowed: after the mutating
	// webhooks' patches (JSON).
	Object []byte
}

// step is one webhook a create goes through: its name in the release's webhook configurations,
// the path it is served at and the resource the request names (in the Trainer's API group unless
// gv says otherwise).
type step struct {
	name, path, resource string
	gv                   schema.GroupVersion
}

// createSteps lists, per kind, the webhooks a create calls in order (mutating before validating,
// as admission orders them).
var createSteps = map[string][]step{
	trainer.TrainJobKind: {
		{name: "defaulter.trainjob.trainer.kubeflow.org", path: mutateTrainJobPath, resource: "trainjobs"},
		{name: "validator.trainjob.trainer.kubeflow.org", path: validateTrainJobPath, resource: "trainjobs"},
	},
	trainer.TrainingRuntimeKind: {
		{name: "validator.trainingruntime.trainer.kubeflow.org", path: validateTrainingRuntimePath, resource: "trainingruntimes"},
	},
	trainer.ClusterTrainingRuntimeKind: {
		{name: "validator.clustertrainingruntime.trainer.kubeflow.org", path: validateClusterTrainingRuntimePath, resource: "clustertrainingruntimes"},
	},
}

// Create sends an object to the webhooks a create of its kind goes through and returns their
// verdict. The object is JSON as admission receives it (after Schemas.Admit).
func (c *Cluster) Create(ctx context.Context, kind string, object []byte, namespace, name string) (Verdict, error) {
	steps, ok := createSteps[kind]
	if !ok {
		return Verdict{}, fmt.Errorf("no trainer webhook for kind %s", kind)
	}
	return c.create(ctx, steps, kind, object, namespace, name)
}

// create runs a create's webhooks in order: a denial ends it, a mutating webhook's patch is applied
// before the next one sees the object.
func (c *Cluster) create(ctx context.Context, steps []step, kind string, object []byte, namespace, name string) (Verdict, error) {
	verdict := Verdict{Allowed: true}
	for _, step := range steps {
		response, err := c.review(ctx, step, kind, object, namespace, name)
		if err != nil {
			return verdict, fmt.Errorf("%s: %w", step.name, err)
		}
		verdict.Warnings = append(verdict.Warnings, response.Warnings...)
		if !response.Allowed {
			verdict.Allowed = false
			verdict.Webhook = step.name
			if response.Result != nil {
				verdict.Message = response.Result.Message
			}
			return verdict, nil
		}
		// The API server applies a mutating webhook's patch before the next webhook sees the object.
		if len(response.Patch) > 0 {
			patch, err := jsonpatch.DecodePatch(response.Patch)
			if err != nil {
				return verdict, fmt.Errorf("%s: patch: %w", step.name, err)
			}
			if object, err = patch.Apply(object); err != nil {
				return verdict, fmt.Errorf("%s: applying its patch: %w", step.name, err)
			}
		}
	}
	verdict.Object = object
	return verdict, nil
}

// review posts one AdmissionReview (admission.k8s.io/v1, operation CREATE) to a webhook path.
func (c *Cluster) review(ctx context.Context, step step, kind string, object []byte, namespace, name string) (*admissionv1.AdmissionResponse, error) {
	gv := step.gv
	if gv.Empty() {
		gv = trainer.GroupVersion
	}
	gvk := metav1.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
	gvr := metav1.GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: step.resource}
	review := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID:             types.UID("conformance-" + name),
			Kind:            gvk,
			Resource:        gvr,
			RequestKind:     &gvk,
			RequestResource: &gvr,
			Name:            name,
			Namespace:       namespace,
			Operation:       admissionv1.Create,
			Object:          apiruntime.RawExtension{Raw: object},
		},
	}
	body, err := json.Marshal(review)
	if err != nil {
		return nil, err
	}
	request := httptest.NewRequestWithContext(ctx, http.MethodPost, step.path, bytes.NewReader(body))
	request.Header.Set("Content-Type", "application/json")
	recorder := httptest.NewRecorder()
	c.mux.ServeHTTP(recorder, request)
	if recorder.Code != http.StatusOK {
		return nil, fmt.Errorf("%s answered HTTP %d: %s", step.path, recorder.Code, recorder.Body.String())
	}
	var answer admissionv1.AdmissionReview
	if err := json.Unmarshal(recorder.Body.Bytes(), &answer); err != nil {
		return nil, fmt.Errorf("%s answered something other than an AdmissionReview: %w", step.path, err)
	}
	if answer.Response == nil {
		return nil, fmt.Errorf("%s answered an AdmissionReview without a response", step.path)
	}
	return answer.Response, nil
}
