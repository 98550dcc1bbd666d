// Command kube-apiserver runs the API server of the pinned k8s.io/kubernetes
// module (the same two calls as its cmd/kube-apiserver main).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
