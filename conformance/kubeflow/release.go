package kubeflow

// Release is the training operator release this module's build list holds. ../kubeflow-v1.9.0
// shares every other source file of this folder (symbolic links) and has its own release.go.
const Release = "v1.9.4"

// WritesDerived: this module writes the objects the operator builds from the manifests and the
// fuzz corpus for the Kubernetes module to validate (../kubeflow-v1.9.0 builds them too, but the
// records stay v1.9.4's).
const WritesDerived = true
