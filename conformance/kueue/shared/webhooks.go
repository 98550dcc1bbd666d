package shared

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	jsonpatch "github.com/evanphx/json-patch/v5"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Webhook is one of the release's admission webhooks on a Kueue resource, as its webhook
// configuration declares it (config/components/webhook/manifests.yaml).
type Webhook struct {
	Name, Path string
	Mutating   bool
	// Version is the API version the webhook is registered for: the API server converts the
	// object to it before calling (matchPolicy Equivalent, the default).
	Version string
}

// Webhooks are the create webhooks of the release by resource (plural), mutating before
// validating, as admission orders them.
type Webhooks map[string][]Webhook

// LoadWebhooks reads the release's webhook configurations and keeps the webhooks whose rules
// match a CREATE in the Kueue group.
func LoadWebhooks(moduleDir string) (Webhooks, error) {
	file := filepath.Join(moduleDir, "config", "components", "webhook", "manifests.yaml")
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	docs, err := corpus.Decode(file, raw)
	if err != nil {
		return nil, err
	}
	mutating, validating := Webhooks{}, Webhooks{}
	add := func(into Webhooks, name string, path *string, rules []admissionregistrationv1.RuleWithOperations, isMutating bool) {
		if path == nil {
			return
		}
		for _, rule := range rules {
			if !contains(rule.APIGroups, Group) || !(contains(rule.Operations, admissionregistrationv1.Create) || contains(rule.Operations, admissionregistrationv1.OperationAll)) {
				continue
			}
			for _, resource := range rule.Resources {
				for _, version := range rule.APIVersions {
					into[resource] = append(into[resource], Webhook{Name: name, Path: *path, Mutating: isMutating, Version: version})
				}
			}
		}
	}
	for _, d := range docs {
		data, err := corpus.JSON(d.Object)
		if err != nil {
			return nil, err
		}
		switch d.Kind() {
		case "MutatingWebhookConfiguration":
			var c admissionregistrationv1.MutatingWebhookConfiguration
			if err := json.Unmarshal(data, &c); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Label(), err)
			}
			for _, w := range c.Webhooks {
				if w.ClientConfig.Service != nil {
					add(mutating, w.Name, w.ClientConfig.Service.Path, w.Rules, true)
				}
			}
		case "ValidatingWebhookConfiguration":
			var c admissionregistrationv1.ValidatingWebhookConfiguration
			if err := json.Unmarshal(data, &c); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Label(), err)
			}
			for _, w := range c.Webhooks {
				if w.ClientConfig.Service != nil {
					add(validating, w.Name, w.ClientConfig.Service.Path, w.Rules, false)
				}
			}
		}
	}
	out := Webhooks{}
	for resource, list := range mutating {
		out[resource] = append(out[resource], list...)
	}
	for resource, list := range validating {
		out[resource] = append(out[resource], list...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no webhooks on %s", file, Group)
	}
	return out, nil
}

func contains[T comparable](list []T, value T) bool {
	for _, v := range list {
		if v == value {
			return true
		}
	}
	return false
}

// Server is Kueue's webhook server (the mux its manager serves), called as the API server calls it.
type Server struct{ Mux http.Handler }

// Convert asks the release's conversion webhook (/convert, which controller-runtime serves for the
// convertible types Kueue registers) for the object in another version, as the API server does for
// a CRD whose conversion strategy is Webhook.
func (s Server) Convert(ctx context.Context, object map[string]any, desired string) (map[string]any, error) {
	raw, err := json.Marshal(object)
	if err != nil {
		return nil, err
	}
	review := apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: apiextensionsv1.SchemeGroupVersion.String(), Kind: "ConversionReview"},
		Request: &apiextensionsv1.ConversionRequest{
			UID:               types.UID("conformance"),
			DesiredAPIVersion: desired,
			Objects:           []runtime.RawExtension{{Raw: raw}},
		},
	}
	var answer apiextensionsv1.ConversionReview
	if err := s.post(ctx, "/convert", review, &answer); err != nil {
		return nil, err
	}
	if answer.Response == nil {
		return nil, fmt.Errorf("/convert answered a ConversionReview without a response")
	}
	if answer.Response.Result.Status != metav1.StatusSuccess {
		return nil, fmt.Errorf("conversion to %s failed: %s", desired, answer.Response.Result.Message)
	}
	if len(answer.Response.ConvertedObjects) != 1 {
		return nil, fmt.Errorf("/convert answered %d objects for 1", len(answer.Response.ConvertedObjects))
	}
	var converted map[string]any
	if err := json.Unmarshal(answer.Response.ConvertedObjects[0].Raw, &converted); err != nil {
		return nil, err
	}
	return converted, nil
}

// Review posts one AdmissionReview (admission.k8s.io/v1, operation CREATE) to a webhook and
// returns its response.
func (s Server) Review(ctx context.Context, w Webhook, kind, resource string, object []byte, namespace, name string) (*admissionv1.AdmissionResponse, error) {
	gvk := metav1.GroupVersionKind{Group: Group, Version: w.Version, Kind: kind}
	gvr := metav1.GroupVersionResource{Group: Group, Version: w.Version, Resource: resource}
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
			Object:          runtime.RawExtension{Raw: object},
		},
	}
	var answer admissionv1.AdmissionReview
	if err := s.post(ctx, w.Path, review, &answer); err != nil {
		return nil, err
	}
	if answer.Response == nil {
		return nil, fmt.Errorf("%s answered an AdmissionReview without a response", w.Path)
	}
	return answer.Response, nil
}

// applyPatch applies a mutating webhook's JSON patch, as the API server does before the next
// webhook sees the object.
func applyPatch(object, patch []byte) ([]byte, error) {
	p, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return nil, err
	}
	return p.Apply(object)
}

func (s Server) post(ctx context.Context, path string, body, into any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	request := httptest.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(data))
	request.Header.Set("Content-Type", "application/json")
	recorder := httptest.NewRecorder()
	s.Mux.ServeHTTP(recorder, request)
	if recorder.Code != http.StatusOK {
		return fmt.Errorf("%s answered HTTP %d: %s", path, recorder.Code, recorder.Body.String())
	}
	if err := json.Unmarshal(recorder.Body.Bytes(), into); err != nil {
		return fmt.Errorf("%s answered something unexpected: %w", path, err)
	}
	return nil
}
