package kubeflow

// Release is the training operator release this module's build list holds. ../kubeflow-v1.9.0
// shares every other source file of this folder (symbolic links) and has its own release.go.
const Release = "v1.9.4"
