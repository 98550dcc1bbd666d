"""Runs a Pulumi program under Pulumi's unit-test mocks and prints, as JSON, every resource it
registered (type, name, inputs). Nothing is deployed and no Pulumi CLI or engine is needed.

    python pulumi_mocks.py PROGRAM.py
"""
import json
import runpy
import sys

import pulumi

registered = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        return [f"{args.name}-id", args.inputs]

    def call(self, args):
        return {}


pulumi.runtime.set_mocks(Mocks(), project="bindings-test", stack="test", preview=False)


@pulumi.runtime.test
def run_program():
    namespace = runpy.run_path(sys.argv[1], run_name="__main__")
    resources = [v for v in namespace.values() if isinstance(v, pulumi.Resource)]
    return pulumi.Output.all(*[r.urn for r in resources])


run_program()
json.dump(registered, sys.stdout, indent=1, default=str)
