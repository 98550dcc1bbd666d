package trainer

import (
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	configapi "github.com/kubeflow/trainer/v2/pkg/apis/config/v1alpha1"
	"github.com/kubeflow/trainer/v2/pkg/config"
)

// Release is the Trainer release this module's build list holds. The other source files are
// ../trainer's (symbolic links): this file holds what differs between v2.2.0's API and build
// list and v2.3.0's.
const Release = "v2.2.0"

// JobSetWebhooks is false: v2.2.0 pins JobSet v0.11.1 for its API only, and that release's
// pkg/webhooks does not build with the controller-runtime v2.2.0 pins (v0.23.3 changed
// NewWebhookManagedBy). The JobSet each TrainJob builds is still built by v2.2.0's controller
// code; only the JobSet webhooks on it run at v2.3.0's pins alone (../trainer).
const JobSetWebhooks = false

// loadConfig loads the trainer's configuration as its manager does without a config file
// (cmd/trainer-controller-manager); v2.2.0's config.Load also takes whether the servers enable
// HTTP/2, which the manager's flag leaves off.
func loadConfig(scheme *apiruntime.Scheme) (ctrl.Options, configapi.Configuration, error) {
	return config.Load(scheme, "", false)
}

// setupJobSetWebhooks registers nothing (see JobSetWebhooks).
func setupJobSetWebhooks(manager.Manager) error { return nil }
