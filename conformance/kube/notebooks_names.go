package kube

import (
	"crypto/sha256"
	"encoding/hex"
)

// The names the Notebooks v2 workspace controller (kubeflow/notebooks, notebooks-v2 branch at the
// commit upstream/README.md pins, workspaces/controller/internal/controller/workspace_controller.go)
// gives the objects it owns, and the name the API server then generates from them. The controller's
// Go module is not served by the module proxy, so these are the library's model of it, written
// from the facts of that source: each limit below is one of its constants.

const (
	// The StatefulSet's name is kept at most 52 characters long, so that the revision label the
	// StatefulSet controller puts on its pods (`<name>-<hash>`) stays a valid label value.
	workspaceStatefulSetNameLimit = 52
	// A Service's name is a DNS-1035 label.
	workspaceServiceNameLimit = 63
	// A ServiceAccount's name is a DNS-1123 subdomain.
	workspaceServiceAccountNameLimit = 253
	// The controller reserves 6 characters for the suffix `metadata.generateName` gets (the API
	// server appends 5) and one for the "-" before it.
	workspaceGenerateNameReserve = 6 + 1
	// The length of the hash that keeps a truncated ServiceAccount name unique.
	workspaceNameHashLength = 8
)

// workspaceGenerateName is the `metadata.generateName` the controller gives a Workspace's
// StatefulSet or Service: "ws-<workspace>" cut to the limit less the reserve, ending in "-"
// (added unless the cut already ends in one).
func workspaceGenerateName(workspace string, limit int) string {
	prefix := "ws-" + workspace
	if keep := limit - workspaceGenerateNameReserve; len(prefix) > keep {
		prefix = prefix[:keep]
	}
	if prefix[len(prefix)-1] != '-' {
		prefix += "-"
	}
	return prefix
}

// generatedName is the name the API server gives an object created with that generateName
// (k8s.io/apiserver/pkg/storage/names, SimpleNameGenerator: the prefix cut to 58 characters, then
// five random characters, here derived.go's fixed generatedSuffix). The StatefulSet's name is
// needed here, before validation, because its pod is named after it.
func generatedName(generateName string) string {
	if len(generateName) > 63-len(generatedSuffix) {
		generateName = generateName[:63-len(generatedSuffix)]
	}
	return generateName + generatedSuffix
}

// workspaceServiceAccountName is the fixed name of a Workspace's ServiceAccount, which its pods
// run as: "ws-<workspace>", or, when that is too long, cut and ended with a hash of the workspace
// name (the first 8 hexadecimal digits of its SHA-256), so two long names sharing a prefix differ.
func workspaceServiceAccountName(workspace string) string {
	name := "ws-" + workspace
	if len(name) <= workspaceServiceAccountNameLimit {
		return name
	}
	sum := sha256.Sum256([]byte(workspace))
	hash := hex.EncodeToString(sum[:])[:workspaceNameHashLength]
	return name[:workspaceServiceAccountNameLimit-len(hash)-1] + "-" + hash
}
