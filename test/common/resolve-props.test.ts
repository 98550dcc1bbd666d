import { ApiObject, App, Chart, IResolver, JsonPatch, Lazy, ResolutionContext, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { buildExamples } from '../../examples/main';
import { DistributedPyTorch, kubeflow } from '../../src';
import { resolveProps, resolvePropsInOneWalk } from '../../src/common/internal/resolve-props';

/*
 * The library's constructs resolve their objects' props in one walk (src/common/internal/resolve-props.ts).
 * The answer must be exactly cdk8s's `ApiObject.toJson()`, key order included, or undefined so that
 * cdk8s renders the object itself.
 */

/** What cdk8s's own `ApiObject.toJson()` gives for the object (the generated L1 overrides it). */
function throughCdk8s(apiObject: ApiObject): any {
  return ApiObject.prototype.toJson.call(apiObject);
}

/** A hand-written PyTorchJob whose props resolve in one walk, as a construct's object does. */
function jobWithSpec(spec: any, app: App = Testing.app()): kubeflow.PyTorchJob {
  const job = new kubeflow.PyTorchJob(new Chart(app, 'test'), 'job', { metadata: { name: 'job' }, spec });
  resolvePropsInOneWalk(job);
  return job;
}

/** A class instance that is neither a token nor a number-or-string union. */
class Opaque {
  public readonly size = 3;
}

describe('one-walk resolution of the props', () => {
  test('every object of every example resolves as cdk8s resolves it, key order included', () => {
    const app = buildExamples(Testing.app());
    const objects = app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
    // The objects the constructs made (id `Resource`, a generated L1) all take the one walk: the
    // examples' app has cdk8s's default resolvers. The other objects (L1s and cdk8s-plus objects
    // written by hand) are compared too, as more inputs to the same function.
    const constructed = objects.filter(o => o.node.id === 'Resource' && typeof (o as any)._setPropsResolver === 'function');
    expect(constructed.length).toBeGreaterThanOrEqual(40);
    for (const apiObject of constructed) {
      const path = apiObject.node.path;
      expect({ path, oneWalk: resolveProps(apiObject) !== undefined }).toEqual({ path, oneWalk: true });
    }
    for (const apiObject of objects) {
      const ours = resolveProps(apiObject);
      const path = apiObject.node.path;
      if (ours !== undefined) expect({ path, json: JSON.stringify(ours) }).toEqual({ path, json: JSON.stringify(throughCdk8s(apiObject)) });
    }
  });

  test('tokens, unions, nulls, sparse arrays and key order resolve as in cdk8s', () => {
    const holes: any[] = ['a'];
    holes[2] = 'c';
    const job = jobWithSpec({
      runPolicy: { backoffLimit: Lazy.any({ produce: () => Lazy.any({ produce: () => 3 }) }), suspend: undefined, cleanPodPolicy: null },
      pytorchReplicaSpecs: {
        Worker: {
          replicas: { resolve: () => 2 },
          template: {
            metadata: { labels: { zeta: 'z', alpha: 'a', 10: 'ten', 9: 'nine' } },
            spec: {
              containers: [{
                name: 'pytorch',
                // Behind a token: the boundary refuses a list with holes given as it is (cdk8s would write null).
                args: Lazy.any({ produce: () => holes }),
                resources: { limits: { 'cpu': k8s.Quantity.fromString('4'), 'nvidia.com/gpu': k8s.Quantity.fromNumber(1) } },
                ports: [{ containerPort: 23456, name: Lazy.any({ produce: () => 'pytorchjob-port' }) }],
              }],
            },
          },
        },
      },
    });
    const ours = resolveProps(job);
    expect(ours).toBeDefined();
    expect(JSON.stringify(ours)).toEqual(JSON.stringify(throughCdk8s(job)));
    expect(Object.keys(ours)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(ours.spec.runPolicy).toEqual({ backoffLimit: 3 });
    expect(ours.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.limits).toEqual({ 'cpu': { value: '4' }, 'nvidia.com/gpu': { value: 1 } });
    // The manifest the object writes is the same either way.
    const manifest = job.toJson();
    expect(manifest.spec.pytorchReplicaSpecs.Worker).toMatchObject({ replicas: 2 });
    expect(manifest.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.limits).toEqual({ 'cpu': '4', 'nvidia.com/gpu': 1 });
  });

  test('an app with its own resolver renders through cdk8s, which runs it', () => {
    class Upper implements IResolver {
      public resolve(context: ResolutionContext): void {
        if (context.value === 'from-resolver') context.replaceValue('FROM-RESOLVER');
      }
    }
    const app = new App({ resolvers: [new Upper()] });
    const job = jobWithSpec({ pytorchReplicaSpecs: { Master: { replicas: 1, restartPolicy: 'from-resolver' } } }, app);
    expect(resolveProps(job)).toBeUndefined();
    expect(job.toJson().spec.pytorchReplicaSpecs.Master.restartPolicy).toBe('FROM-RESOLVER');

    // The same through a construct: its rendering takes cdk8s's path too.
    const custom = new App({ resolvers: [new Upper()] });
    const pytorch = new DistributedPyTorch(new Chart(custom, 'jobs'), 'job', { image: 'from-resolver', workers: 1 });
    expect(resolveProps(pytorch.apiObject)).toBeUndefined();
    expect(pytorch.apiObject.toJson().spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image).toBe('FROM-RESOLVER');
  });

  test('CDK8S_DISABLE_SORT and JSON patches kept by cdk8s leave the object to cdk8s', () => {
    const job = jobWithSpec({ pytorchReplicaSpecs: { Master: { replicas: 1 } } });
    expect(resolveProps(job)).toBeDefined();
    process.env.CDK8S_DISABLE_SORT = '1';
    try {
      expect(resolveProps(job)).toBeUndefined();
    } finally {
      delete process.env.CDK8S_DISABLE_SORT;
    }
    // cdk8s's own patch list (the generated L1s keep theirs apart); only a caller bypassing the
    // override can reach it.
    ApiObject.prototype.addJsonPatch.call(job, JsonPatch.add('/spec/runPolicy', { suspend: true }));
    expect(resolveProps(job)).toBeUndefined();
    expect(job.toJson().spec.runPolicy).toEqual({ suspend: true });
  });

  test('a value cdk8s cannot render gets cdk8s\'s own error', () => {
    // Behind a token: given as it is, the boundary refuses it when the L1 is constructed.
    const job = jobWithSpec({ pytorchReplicaSpecs: { Master: { replicas: Lazy.any({ produce: () => new Opaque() }) } } });
    expect(resolveProps(job)).toBeUndefined();
    expect(() => job.toJson()).toThrow("Failed serializing construct at path 'test/job' with name 'job': Error: can't render non-simple object of type 'Opaque'");
  });

  test('a Lazy that throws gives the message cdk8s gives', () => {
    const job = jobWithSpec(Lazy.any({ produce: () => { throw new Error('boom'); } }));
    const message = "Failed serializing construct at path 'test/job' with name 'job': Error: boom";
    expect(() => resolveProps(job)).toThrow(message);
    expect(() => throughCdk8s(job)).toThrow(message);
  });
});
