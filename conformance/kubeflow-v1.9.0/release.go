package kubeflow

// Release is the training operator release this module's build list holds, the oldest of the
// window. Every other source file is ../kubeflow's (symbolic links).
const Release = "v1.9.0"
