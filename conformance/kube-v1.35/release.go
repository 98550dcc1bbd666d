package kube

// Release is the Kubernetes release this module's build list holds, the newest of the window.
// Every other source file is ../kube's (symbolic links).
const Release = "v1.35.0"
