package trainer

import (
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	configapi "github.com/kubeflow/trainer/v2/pkg/apis/config/v1alpha1"
	"github.com/kubeflow/trainer/v2/pkg/config"
)

// Release is the Trainer release this module's build list holds. The module for v2.2.0
// (../trainer-v2.2) shares every other source file of this folder and has its own release.go:
// this file holds what differs between the releases' APIs.
const Release = "v2.3.0"

// loadConfig loads the trainer's configuration as its manager does without a config file
// (cmd/trainer-controller-manager); v2.3.0's config.Load takes the scheme and the file name.
func loadConfig(scheme *apiruntime.Scheme) (ctrl.Options, configapi.Configuration, error) {
	return config.Load(scheme, "")
}
