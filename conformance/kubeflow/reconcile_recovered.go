package kubeflow

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
)

// reconcileRecovered runs one Reconcile as controller-runtime does: a panic of the reconciler
// (the TFJob reconciler's genClusterSpec makes a slice of the replica count, which panics on a
// count out of range) is recovered and becomes the reconcile's error, so the operator builds
// nothing from that job, as on a cluster. Found by the leaf fuzz run (seed 20261207).
func reconcileRecovered(r reconciler, req ctrl.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	_, err = r.Reconcile(context.Background(), req)
	return err
}
