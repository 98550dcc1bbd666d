package kubeflow

// Release is the training operator release this module's build list holds, the oldest of the
// window. Every other source file is ../kubeflow's (symbolic links).
const Release = "v1.9.0"

// WritesDerived is off: the derived objects are built here too (the same reconcilers at v1.9.0),
// but DERIVED_DIR keeps v1.9.4's, which ../kube and ../kube-v1.35 validate.
const WritesDerived = false
