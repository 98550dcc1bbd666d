// Command etcd runs the etcd server of the pinned go.etcd.io/etcd/server/v3
// module; the upstream repository keeps its own main outside that module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
