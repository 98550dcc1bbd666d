import { App, Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { Ids, jobData, jobProps } from './job-arbitraries';
import { jobK8sEffect, jobK8sFault, JobK8sFault, kindK8sEffect, kindK8sFault, KindK8sFault } from './k8s-faults';
import { buildKind, kindData } from './notebook-arbitraries';
import { DistributedPyTorch } from '../../src';

/** The context key that turns the library's Kubernetes rules off (what the differential run uses). */
const RULES_OFF = { key: 'cdk8s-kubeflow.internal/kubernetes-rules', value: 'off' };
/**
 * The generated jobs may be dispatched by MultiKueue without a queue (the differential run makes
 * its data consistent first; this test does not): a Kueue rule's finding, unrelated to the fault,
 * which the key above switched off too while it covered every rule across objects.
 */
const KUEUE_RULES_OFF = { key: 'cdk8s-kubeflow/rules/kueue', value: 'off' };

function renderOff(build: (chart: Chart) => void): any[] {
  const app = new App({ outdir: Testing.app().outdir });
  app.node.setContext(RULES_OFF.key, RULES_OFF.value);
  app.node.setContext(KUEUE_RULES_OFF.key, KUEUE_RULES_OFF.value);
  const chart = new Chart(app, 'test');
  build(chart);
  return Testing.synth(chart);
}

/** The value a fault writes, as it appears in the rendered JSON. */
function badValue(f: Exclude<JobK8sFault, { fault: 'toleration' }> | KindK8sFault): string {
  switch (f.fault) {
    case 'label key': case 'annotation key': case 'node selector key': case 'pod label key': case 'pod annotation key': return f.key;
    case 'label value': case 'pod label value': return f.value;
    case 'namespace': return f.namespace;
    case 'env name': case 'port name': case 'volume name': case 'priority class': return f.name;
    case 'image whitespace': return f.image;
    case 'subPath': return f.subPath;
    default: return f.path;
  }
}

// Every fault reaches the manifest: with the library's Kubernetes rules off, the rendered job
// holds the bad value (a fault that never reached the output would prove nothing in the
// differential run).
test('every Kubernetes-level job fault is written into the rendered manifest', () => {
  const seen = new Set<string>();
  fc.assert(fc.property(jobData, jobK8sFault, (d, f) => {
    seen.add(f.fault);
    const docs = renderOff(chart => {
      const ids = new Ids();
      const effect = jobK8sEffect(f);
      // Only the fault's own values: no generated role options or environment.
      const plain = { ...d, role: { env: {}, mirrorPodRestartPolicy: false, sidecar: false, initContainer: false }, lateEnv: {} };
      let props: any = jobProps(chart, ids, plain, { Master: 1, Worker: 1 });
      if (effect.job) props = effect.job(props);
      const job = new DistributedPyTorch(chart, 'job', { ...props, workers: 1, worker: effect.role?.({}) });
      effect.after?.(job, chart);
    });
    if (f.fault === 'toleration') {
      expect(docs[0].spec.pytorchReplicaSpecs.Worker.template.spec.tolerations).toContainEqual(f.toleration);
    } else {
      expect(JSON.stringify(docs)).toContain(JSON.stringify(badValue(f)).slice(1, -1));
    }
  }), { numRuns: 200, seed: 11 });
  expect(seen.size).toBe(13);
});

test('every Kubernetes-level WorkspaceKind fault is written, except a relative home path, which the construct refuses', () => {
  fc.assert(fc.property(kindData, kindK8sFault, (d, f) => {
    const build = (chart: Chart) => buildKind(chart, d, new Ids(), { props: kindK8sEffect(f) });
    if (f.fault === 'relative home mount path') {
      expect(() => renderOff(build)).toThrow(`test/kind: homeMountPath is "${f.path}"; expected an absolute path`);
      return;
    }
    expect(JSON.stringify(renderOff(build))).toContain(JSON.stringify(badValue(f)).slice(1, -1));
  }), { numRuns: 100, seed: 11 });
});
