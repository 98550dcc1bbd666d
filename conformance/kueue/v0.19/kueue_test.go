// Kueue v0.19.2's own validation on the library's Kueue documents and the fixtures: the release's
// CRDs (from the module), its conversion webhook and its admission webhooks (pkg/webhooks), built
// with the build list v0.19.2's go.mod pins. The judging is ../shared, common to every release.
package kueue

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/go-logr/logr"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueuev1beta2 "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/webhooks"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/kueue/shared"
)

// version is the release this module judges; the test fails when the build list holds another.
const version = "v0.19.2"

// webhookManager stands in for Kueue's manager where pkg/webhooks registers its handlers: the
// webhook builder of controller-runtime v0.24 asks only for the scheme, the rest config, the converter registry and the
// webhook server. Any other method is the nil embedded interface and panics, so a webhook that
// came to need more fails loudly.
type webhookManager struct {
	manager.Manager
	scheme     *apiruntime.Scheme
	server     webhook.Server
	converters conversion.Registry
}

func (m *webhookManager) GetScheme() *apiruntime.Scheme    { return m.scheme }
func (m *webhookManager) GetWebhookServer() webhook.Server { return m.server }
func (m *webhookManager) GetConfig() *rest.Config          { return &rest.Config{} }

// GetConverterRegistry serves the conversion webhook (/convert) the builder registers for
// Kueue's convertible types.
func (m *webhookManager) GetConverterRegistry() conversion.Registry { return m.converters }

// release builds v0.19.2's webhook server as cmd/kueue does (the scheme with both Kueue API
// versions, webhooks.Setup) and reads the CRDs and webhook configurations of the module.
func release(t *testing.T) *shared.Release {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-json", "sigs.k8s.io/kueue").Output()
	if err != nil {
		t.Fatalf("go list -m sigs.k8s.io/kueue: %v", err)
	}
	var module struct{ Version, Dir string }
	if err := json.Unmarshal(out, &module); err != nil {
		t.Fatal(err)
	}
	if module.Version != version || module.Dir == "" {
		t.Fatalf("the build list holds sigs.k8s.io/kueue %s at %q; expected %s", module.Version, module.Dir, version)
	}
	scheme := apiruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(kueuev1beta1.AddToScheme(scheme))
	utilruntime.Must(kueuev1beta2.AddToScheme(scheme))
	server := webhook.NewServer(webhook.Options{})
	if failed, err := webhooks.Setup(&webhookManager{scheme: scheme, server: server, converters: conversion.NewRegistry()}, nil); err != nil {
		t.Fatalf("setting up the %s webhook: %v", failed, err)
	}
	r, err := shared.NewRelease(version, module.Dir, shared.Server{Mux: server.WebhookMux()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

func TestLibrary(t *testing.T)  { shared.TestLibrary(t, release(t)) }
func TestFixtures(t *testing.T) { shared.TestFixtures(t, release(t)) }
