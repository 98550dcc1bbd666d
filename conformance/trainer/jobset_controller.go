package trainer

import (
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetcontrollers "sigs.k8s.io/jobset/pkg/controllers"
	sigsjson "sigs.k8s.io/json"
)

// JobSetChildren are what the JobSet controller of sigs.k8s.io/jobset v0.12.0 creates for one JobSet,
// as it sends them to the API server: its Jobs, and the headless Service that gives the pods their
// DNS names.
type JobSetChildren struct {
	Jobs     []*batchv1.Job
	Services []*corev1.Service
}

// jobSetScheme holds what the JobSet reconciler reads and creates.
var jobSetScheme = func() *apiruntime.Scheme {
	s := apiruntime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := jobsetv1alpha2.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// stableUID stands for the UID the API server gives an object: the same shape (a UUID, which the
// JobSet controller and the API server copy into label values), derived from what it names so
// that runs compare.
func stableUID(kind, namespace, name string) types.UID {
	h := sha1.Sum([]byte(kind + "/" + namespace + "/" + name))
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16]))
}

// indexes records the field indexes the JobSet controller registers with its manager's cache
// (SetupJobSetIndexes: Jobs by their owning JobSet), so the fake client gets the same ones.
type indexes struct {
	add []func(*fake.ClientBuilder) *fake.ClientBuilder
}

func (i *indexes) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	i.add = append(i.add, func(b *fake.ClientBuilder) *fake.ClientBuilder { return b.WithIndex(obj, field, extract) })
	return nil
}

// BuildJobSetChildren runs the JobSet controller's reconciler (JobSetReconciler.Reconcile, the code
// the controller manager calls) on a controller-runtime fake client holding the JobSet as stored
// (stored: after the JobSet defaulting webhook), and collects every object it creates. Job
// construction (constructJob: names, labels and annotations, subdomain, suspend, exclusive
// placement) is unexported, so the reconciler runs whole.
//
// A replicated job that dependsOn another is created only once the other's Jobs are Ready or
// Complete; between rounds, each Job created so far is given the status that lets the next
// replicated jobs start (its pods ready; Complete where a dependency asks for it), as the Job
// controller would report it. The JobSet's success policy never targets only the jobs that
// others wait on in the Trainer's runtimes; if a round creates nothing while replicated jobs
// have no Jobs, that is an error.
func BuildJobSetChildren(ctx context.Context, stored []byte) (*JobSetChildren, error) {
	js := &jobsetv1alpha2.JobSet{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(stored, js); err != nil {
		return nil, fmt.Errorf("the stored JobSet does not decode: %w", err)
	}
	if js.Namespace == "" {
		js.Namespace = DefaultNamespace
	}
	js.UID = stableUID("JobSet", js.Namespace, js.Name)
	js.ResourceVersion = ""

	var mu sync.Mutex
	created := &JobSetChildren{}
	idx := &indexes{}
	if err := jobsetcontrollers.SetupJobSetIndexes(ctx, idx); err != nil {
		return nil, err
	}
	builder := fake.NewClientBuilder().WithScheme(jobSetScheme).
		WithObjects(js).
		WithStatusSubresource(&jobsetv1alpha2.JobSet{}).
		WithInterceptorFuncs(interceptor.Funcs{Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			// What the controller sends, before the fake client stamps it.
			mu.Lock()
			switch o := obj.(type) {
			case *batchv1.Job:
				created.Jobs = append(created.Jobs, o.DeepCopy())
			case *corev1.Service:
				created.Services = append(created.Services, o.DeepCopy())
			}
			mu.Unlock()
			return c.Create(ctx, obj, opts...)
		}})
	for _, add := range idx.add {
		builder = add(builder)
	}
	c := builder.Build()
	reconciler := jobsetcontrollers.NewJobSetReconciler(c, jobSetScheme, &events.FakeRecorder{})
	request := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: js.Namespace, Name: js.Name}}

	completeWanted := map[string]bool{}
	for _, rj := range js.Spec.ReplicatedJobs {
		for _, d := range rj.DependsOn {
			if d.Status == jobsetv1alpha2.DependencyComplete {
				completeWanted[d.Name] = true
			}
		}
	}
	for round := 0; round <= len(js.Spec.ReplicatedJobs); round++ {
		before := len(created.Jobs)
		if _, err := reconciler.Reconcile(ctx, request); err != nil {
			return nil, fmt.Errorf("the JobSet controller fails to reconcile the JobSet: %w", err)
		}
		if len(created.Jobs) == before && round > 0 {
			break
		}
		if err := progressJobs(ctx, c, js.Namespace, completeWanted); err != nil {
			return nil, err
		}
	}
	sort.Slice(created.Jobs, func(i, j int) bool { return created.Jobs[i].Name < created.Jobs[j].Name })
	perReplicatedJob := map[string]int32{}
	for _, j := range created.Jobs {
		perReplicatedJob[j.Labels[jobsetv1alpha2.ReplicatedJobNameKey]]++
	}
	for _, rj := range js.Spec.ReplicatedJobs {
		if perReplicatedJob[rj.Name] != rj.Replicas {
			return nil, fmt.Errorf("the JobSet controller created %d Jobs for replicated job %q, which asks for %d", perReplicatedJob[rj.Name], rj.Name, rj.Replicas)
		}
	}
	return created, nil
}

// progressJobs reports each Job as running with all its pods ready, and those a dependsOn waits
// for as Complete, so the reconciler's next round creates the replicated jobs that wait on them.
func progressJobs(ctx context.Context, c client.Client, namespace string, completeWanted map[string]bool) error {
	var jobs batchv1.JobList
	if err := c.List(ctx, &jobs, client.InNamespace(namespace)); err != nil {
		return err
	}
	for i := range jobs.Items {
		job := &jobs.Items[i]
		pods := int32(1)
		if job.Spec.Parallelism != nil {
			pods = *job.Spec.Parallelism
		}
		if job.Spec.Completions != nil && *job.Spec.Completions < pods {
			pods = *job.Spec.Completions
		}
		if completeWanted[job.Labels[jobsetv1alpha2.ReplicatedJobNameKey]] {
			job.Status.Succeeded = pods
			job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
		} else {
			job.Status.Active = pods
			job.Status.Ready = &pods
		}
		// Job has a status subresource: the fake client, like the API server, keeps status out of Update.
		if err := c.Status().Update(ctx, job); err != nil {
			return err
		}
	}
	return nil
}

// typedToMap turns a typed object into the JSON-shaped map a derived record carries, with its
// type meta (the controllers leave it to the client).
func typedToMap(obj any, apiVersion, kind string) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	out["apiVersion"] = apiVersion
	out["kind"] = kind
	if meta, ok := out["metadata"].(map[string]any); ok {
		// The fake client's bookkeeping is not part of what the controller sends.
		delete(meta, "resourceVersion")
		delete(meta, "creationTimestamp")
	}
	return out, nil
}
