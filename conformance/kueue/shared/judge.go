// Package shared runs one Kueue release's own validation on Kueue documents: the API server's
// steps for a custom resource with the release's CRDs, the release's conversion webhook where the
// document's version is not the one a webhook is registered for, and the release's admission
// webhooks. It holds no Kueue code: each release's module (../v0.15, ../v0.19) builds Kueue's
// webhook server with its own build list and hands it here, so one source judges every release.
package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/cdk8s-kubeflow/cdk8s-kubeflow/conformance/corpus"
)

// Release is one Kueue release as a cluster runs it.
type Release struct {
	// Version is the release's tag, for reports.
	Version  string
	CRDs     CRDs
	Webhooks Webhooks
	Server   Server
}

// NewRelease reads the release's CRDs and webhook configurations from its module folder and
// takes its webhook server.
func NewRelease(version, moduleDir string, server Server) (*Release, error) {
	crds, err := LoadCRDs(moduleDir)
	if err != nil {
		return nil, err
	}
	hooks, err := LoadWebhooks(moduleDir)
	if err != nil {
		return nil, err
	}
	return &Release{Version: version, CRDs: crds, Webhooks: hooks, Server: server}, nil
}

// Steps a create goes through, named in verdicts.
const (
	StepServed     = "served versions"
	StepPruning    = "pruning"
	StepSchema     = "CRD schema and CEL"
	StepConversion = "conversion"
)

// Verdict is what the release did with one document.
type Verdict struct {
	Doc      corpus.Document
	Accepted bool
	// Step refused the document: one of the Step constants or a webhook's name.
	Step, Message string
	// Webhooks lists the webhooks that were called; Converted is true when the document went
	// through the conversion webhook on the way.
	Webhooks  []string
	Converted bool
}

func (v Verdict) String() string {
	if v.Accepted {
		return v.Doc.Label() + ": accepted"
	}
	return fmt.Sprintf("%s: refused by %s: %s", v.Doc.Label(), v.Step, v.Message)
}

// IsKueue is true for a document of the Kueue API group, any version.
func IsKueue(d corpus.Document) bool {
	_, ok := versionOf(d.APIVersion())
	return ok
}

// Judge creates one Kueue document on the release: the version must be served, the API server's
// custom resource steps in that version must pass with nothing pruned, then each admission
// webhook on its resource is called in order with the object in the webhook's version.
func (r *Release) Judge(ctx context.Context, d corpus.Document) (Verdict, error) {
	verdict := Verdict{Doc: d}
	refuse := func(step, message string) (Verdict, error) {
		verdict.Step, verdict.Message = step, message
		return verdict, nil
	}
	version, ok := versionOf(d.APIVersion())
	if !ok {
		return verdict, fmt.Errorf("%s: not a %s document", d.Label(), Group)
	}
	crd := r.CRDs[d.Kind()]
	if crd == nil {
		return refuse(StepServed, fmt.Sprintf("no %s CRD for kind %s", Group, d.Kind()))
	}
	if !crd.Served(version) {
		return refuse(StepServed, fmt.Sprintf("%s is not served for %s", d.APIVersion(), d.Kind()))
	}
	object, pruned, errs, err := crd.Admit(version, d.Object)
	if err != nil {
		return verdict, fmt.Errorf("%s: %w", d.Label(), err)
	}
	if len(pruned) > 0 {
		sort.Strings(pruned)
		return refuse(StepPruning, "unknown fields the API server drops: "+strings.Join(pruned, ", "))
	}
	if len(errs) > 0 {
		return refuse(StepSchema, errs.ToAggregate().Error())
	}
	meta := corpus.Map(object["metadata"])
	namespace, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	current := version
	var raw []byte
	for _, hook := range r.Webhooks[crd.Plural] {
		if hook.Version != current {
			if crd.ConversionWebhook {
				converted, err := r.Server.Convert(ctx, object, Group+"/"+hook.Version)
				if err != nil {
					return refuse(StepConversion, err.Error())
				}
				object = converted
				verdict.Converted = true
			} else {
				// Conversion strategy None: the API server changes apiVersion only.
				object["apiVersion"] = Group + "/" + hook.Version
			}
			current = hook.Version
			raw = nil
		}
		if raw == nil {
			if raw, err = json.Marshal(object); err != nil {
				return verdict, err
			}
		}
		verdict.Webhooks = append(verdict.Webhooks, hook.Name)
		response, err := r.Server.Review(ctx, hook, crd.Kind, crd.Plural, raw, namespace, name)
		if err != nil {
			return verdict, fmt.Errorf("%s: %s: %w", d.Label(), hook.Name, err)
		}
		if !response.Allowed {
			message := ""
			if response.Result != nil {
				message = response.Result.Message
			}
			return refuse(hook.Name, message)
		}
		if len(response.Patch) > 0 {
			if raw, err = applyPatch(raw, response.Patch); err != nil {
				return verdict, fmt.Errorf("%s: %s: applying its patch: %w", d.Label(), hook.Name, err)
			}
			object = nil
			if err := json.Unmarshal(raw, &object); err != nil {
				return verdict, err
			}
		}
	}
	verdict.Accepted = true
	return verdict, nil
}
