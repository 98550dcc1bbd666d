// Package kubeflow runs the training operator's own admission webhooks (github.com/kubeflow/
// training-operator v1.9.4, pkg/webhooks) on the training jobs the library emits.
//
// It is a module of its own because training-operator v1.9.4 is built on k8s.io/* v0.36 and
// controller-runtime v0.24, while the Kubernetes validation module pins k8s.io/kubernetes v1.34.4
// and must replace every k8s.io staging module with v0.34.4: one build list cannot hold both, and
// forcing either side onto the other's versions would no longer run the released code.
package kubeflow

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	sigsjson "sigs.k8s.io/json"

	trainingoperator "github.com/kubeflow/training-operator/pkg/apis/kubeflow.org/v1"
	"github.com/kubeflow/training-operator/pkg/webhooks/jax"
	"github.com/kubeflow/training-operator/pkg/webhooks/paddlepaddle"
	"github.com/kubeflow/training-operator/pkg/webhooks/pytorch"
	"github.com/kubeflow/training-operator/pkg/webhooks/tensorflow"
	"github.com/kubeflow/training-operator/pkg/webhooks/xgboost"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// webhook is the validating webhook of one kind and a fresh object of its type.
type webhook struct {
	name      string
	validator admission.CustomValidator
	object    func() runtime.Object
}

// webhooks lists the kinds with a validating webhook, as pkg/webhooks/webhooks.go registers them
// (MPIJob's entry there is a scaffold that registers none).
var webhooks = map[string]webhook{
	trainingoperator.PyTorchJobKind: {"pytorchjob webhook", &pytorch.Webhook{}, func() runtime.Object { return &trainingoperator.PyTorchJob{} }},
	trainingoperator.TFJobKind:      {"tfjob webhook", &tensorflow.Webhook{}, func() runtime.Object { return &trainingoperator.TFJob{} }},
	trainingoperator.XGBoostJobKind: {"xgboostjob webhook", &xgboost.Webhook{}, func() runtime.Object { return &trainingoperator.XGBoostJob{} }},
	trainingoperator.PaddleJobKind:  {"paddlejob webhook", &paddlepaddle.Webhook{}, func() runtime.Object { return &trainingoperator.PaddleJob{} }},
	trainingoperator.JAXJobKind:     {"jaxjob webhook", &jax.Webhook{}, func() runtime.Object { return &trainingoperator.JAXJob{} }},
}

// Problem is one error a webhook returned for a document.
type Problem struct {
	Document corpus.Document
	Webhook  string
	Error    string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s", p.Document.Label(), p.Webhook, p.Error)
}

// Figures count what a run checked.
type Figures struct {
	Documents int
	// Runs counts webhook calls by webhook name.
	Runs map[string]int
}

// NewFigures returns empty figures.
func NewFigures() *Figures { return &Figures{Runs: map[string]int{}} }

// Check runs the validating webhook of the document's kind on create, if the kind has one. The
// document is decoded as the API server would hand it to the webhook (case-sensitive JSON).
func Check(d corpus.Document, figures *Figures) []Problem {
	figures.Documents++
	if d.APIVersion() != corpus.JobGroup {
		return nil
	}
	w, ok := webhooks[d.Kind()]
	if !ok {
		return nil
	}
	figures.Runs[w.name]++
	raw, err := corpus.JSON(d.Object)
	if err != nil {
		return []Problem{{d, w.name, err.Error()}}
	}
	obj := w.object()
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, obj); err != nil {
		return []Problem{{d, w.name, fmt.Sprintf("does not decode as %s: %v", d.Kind(), err)}}
	}
	_, err = w.validator.ValidateCreate(context.Background(), obj)
	if err == nil {
		return nil
	}
	var problems []Problem
	if agg, ok := err.(utilerrors.Aggregate); ok {
		for _, e := range agg.Errors() {
			problems = append(problems, Problem{d, w.name, e.Error()})
		}
		return problems
	}
	return []Problem{{d, w.name, err.Error()}}
}
