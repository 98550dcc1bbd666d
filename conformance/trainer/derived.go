package trainer

import (
	"context"
	"fmt"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// JobSetController names the derived records of the JobSet and Job controllers (contract C1).
const JobSetController = "jobset"

// JobSetDerived are the objects a cluster makes from one JobSet as stored (storedJobSet: the
// JobSet the TrainJob controller built, after the JobSet defaulting webhook): the headless Service
// and the Jobs the JobSet controller creates (BuildJobSetChildren, its own code), then the Pods
// the Job controller creates from each Job as the API server stores it (JobPods, a model), through
// JobSet's pod defaulting webhook (DefaultJobSetPod, its own code). from is
// the source document's label (or the fuzz document's file).
func JobSetDerived(ctx context.Context, from string, storedJobSet []byte) ([]corpus.Derived, error) {
	children, err := BuildJobSetChildren(ctx, storedJobSet)
	if err != nil {
		return nil, err
	}
	var out []corpus.Derived
	add := func(kind, apiVersion string, obj any) error {
		object, err := typedToMap(obj, apiVersion, kind)
		if err != nil {
			return err
		}
		out = append(out, corpus.Derived{Controller: JobSetController, From: from, Kind: kind, Object: object})
		return nil
	}
	for _, svc := range children.Services {
		if err := add("Service", "v1", svc); err != nil {
			return nil, err
		}
	}
	for _, job := range children.Jobs {
		if err := add("Job", "batch/v1", job); err != nil {
			return nil, err
		}
		for _, pod := range JobPods(StoredJob(job)) {
			object, err := DefaultJobSetPod(ctx, pod)
			if err != nil {
				return nil, fmt.Errorf("pod %s of Job %s: %w", pod.GenerateName, job.Name, err)
			}
			out = append(out, corpus.Derived{Controller: JobSetController, From: from, Kind: "Pod", Object: object})
		}
	}
	return out, nil
}
