package trainer

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
)

// JobSet v0.12.0 also registers a pod defaulting webhook (pkg/webhooks/pod_webhook.go, mpod.kb.io):
// every pod the Job controller creates for a JobSet goes through it. On a pod of a JobSet with
// exclusive placement (the alpha.jobset.sigs.k8s.io/exclusive-topology annotation) it adds, to the
// leader (completion index 0), a pod affinity and anti-affinity whose topologyKey is the
// annotation's value; a follower gets a nodeSelector copied from the node its leader runs on, which
// needs a scheduled leader and a node, so followers are left as the Job controller made them. Its
// validating twin (vpod.kb.io) only judges followers against their leader's node: not run.
var jobSetPodSteps = []step{{name: "mpod.kb.io", path: "/mutate--v1-pod", resource: "pods", gv: corev1.SchemeGroupVersion}}

var (
	podWebhooksOnce sync.Once
	podWebhooks     *Cluster
	podWebhooksErr  error
)

// jobSetPodWebhooks is JobSet's webhook server alone, on an empty fake client (the leader's
// defaulting reads nothing from it).
func jobSetPodWebhooks() (*Cluster, error) {
	podWebhooksOnce.Do(func() {
		server := webhook.NewServer(webhook.Options{})
		mgr := &webhookManager{scheme: jobSetScheme, server: server, client: fake.NewClientBuilder().WithScheme(jobSetScheme).Build()}
		if err := setupJobSetWebhooks(mgr); err != nil {
			podWebhooksErr = fmt.Errorf("setting up the JobSet webhooks: %w", err)
			return
		}
		podWebhooks = &Cluster{scheme: jobSetScheme, mux: server.WebhookMux()}
	})
	return podWebhooks, podWebhooksErr
}

// DefaultJobSetPod is the pod as JobSet's pod defaulting webhook leaves it: the leader of an
// exclusive-placement JobSet with its affinities, any other pod unchanged. A denial is an error
// (the webhook's failure policy is Fail: the pod is not created).
func DefaultJobSetPod(ctx context.Context, pod *corev1.Pod) (map[string]any, error) {
	object, err := typedToMap(pod, "v1", "Pod")
	if err != nil {
		return nil, err
	}
	if pod.Annotations[batchv1.JobCompletionIndexAnnotation] != "0" {
		return object, nil
	}
	c, err := jobSetPodWebhooks()
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, err
	}
	verdict, err := c.create(ctx, jobSetPodSteps, "Pod", raw, pod.Namespace, pod.GenerateName)
	if err != nil {
		return nil, err
	}
	if !verdict.Allowed {
		return nil, fmt.Errorf("admission webhook %q denied the pod: %s", verdict.Webhook, verdict.Message)
	}
	out := map[string]any{}
	if err := json.Unmarshal(verdict.Object, &out); err != nil {
		return nil, err
	}
	return out, nil
}
