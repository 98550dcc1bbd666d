package kube

// Release is the Kubernetes release this module's build list holds. ../kube-v1.35 shares every
// other source file of this folder (symbolic links) and has its own release.go.
const Release = "v1.34.4"
