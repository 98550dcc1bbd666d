// Command kube-controller-manager runs the controller manager of the pinned
// k8s.io/kubernetes module (the same two calls as its cmd/kube-controller-manager main).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
