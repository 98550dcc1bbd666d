package trainer

import (
	"context"
	"encoding/json"
	"fmt"

	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
)

// Paths and names of the JobSet v0.12.0 webhooks a JobSet create goes through (the kubebuilder
// markers of pkg/webhooks/jobset_webhook.go, which config/components/webhook is generated from).
const (
	mutateJobSetPath   = "/mutate-jobset-x-k8s-io-v1alpha2-jobset"
	validateJobSetPath = "/validate-jobset-x-k8s-io-v1alpha2-jobset"
)

// jobSetSteps are the JobSet webhooks a create calls: the defaulter (success and startup policies,
// indexed completion, OnFailure restarts, DNS hostnames), then the validator, which sees the
// defaulted object as admission orders them.
var jobSetSteps = []step{
	{name: "mjobset.kb.io", path: mutateJobSetPath, resource: "jobsets", gv: jobsetv1alpha2.GroupVersion},
	{name: "vjobset.kb.io", path: validateJobSetPath, resource: "jobsets", gv: jobsetv1alpha2.GroupVersion},
}

// CreateJobSet sends the JobSet the TrainJob controller built to the JobSet controller's webhooks,
// as the API server does when the controller applies it. Only the webhooks run: the JobSet CRD's
// pruning, defaults and schema are not applied first.
func (c *Cluster) CreateJobSet(ctx context.Context, js *jobsetv1alpha2.JobSet) (Verdict, error) {
	object := js.DeepCopy()
	// The build leaves the type meta to the apply configuration; admission decodes by it.
	object.APIVersion = jobsetv1alpha2.GroupVersion.String()
	object.Kind = "JobSet"
	raw, err := json.Marshal(object)
	if err != nil {
		return Verdict{}, fmt.Errorf("encoding the built JobSet: %w", err)
	}
	return c.create(ctx, jobSetSteps, "JobSet", raw, js.Namespace, js.Name)
}
