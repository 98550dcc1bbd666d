package trainer

import (
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	jobsetwebhooks "sigs.k8s.io/jobset/pkg/webhooks"

	configapi "github.com/kubeflow/trainer/v2/pkg/apis/config/v1alpha1"
	"github.com/kubeflow/trainer/v2/pkg/config"
)

// Release is the Trainer release this module's build list holds. The module for v2.2.0
// (../trainer-v2.2) shares every other source file of this folder and has its own release.go:
// this file holds what differs between the releases' APIs and build lists.
const Release = "v2.3.0"

// JobSetWebhooks is true when the build list can run the JobSet webhooks (JobSet v0.12.0's
// pkg/webhooks builds with controller-runtime v0.24.1): Check sends each built JobSet to them.
const JobSetWebhooks = true

// loadConfig loads the trainer's configuration as its manager does without a config file
// (cmd/trainer-controller-manager); v2.3.0's config.Load takes the scheme and the file name.
func loadConfig(scheme *apiruntime.Scheme) (ctrl.Options, configapi.Configuration, error) {
	return config.Load(scheme, "")
}

// setupJobSetWebhooks registers the JobSet controller's webhooks on the manager.
func setupJobSetWebhooks(mgr manager.Manager) error { return jobsetwebhooks.Setup(mgr) }
