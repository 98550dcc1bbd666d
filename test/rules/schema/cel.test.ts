import { parse as celParse, run as celRun, isCelError } from '@bufbuild/cel';
import { Chart, JsonPatch, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { ClusterTrainingRuntime, MlPolicy, TrainingRuntimeRef, TrainJob } from '../../../src';
import { kindSchema, schemaFindings } from '../../../src/rules/schema';
import { CelExpr, CelRule, CelError, evaluate } from '../../../src/rules/schema/cel';
import { SCHEMA_MODULES } from '../../../src/rules/schema/crds';
import { SchemaNode } from '../../../src/rules/schema/schema-node';
import { RUNS } from '../../harness/properties';

/**
 * The CRDs' CEL rules (`x-kubernetes-validations`): every rule of the pinned CRDs is evaluated by the
 * library as the API server does on a create, and agrees with @bufbuild/cel's evaluator (the
 * conformance-tested JavaScript implementation of CEL) on generated values.
 */

interface RuleAt { readonly kind: string; readonly at: string; readonly node: SchemaNode; readonly rule: CelRule }

/** Every rule of every pinned kind, with the schema node that holds it. */
function allRules(): RuleAt[] {
  const out: RuleAt[] = [];
  const seen = new Set<SchemaNode>();
  const walk = (kind: string, node: SchemaNode, at: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const rule of node['x-kubernetes-validations'] ?? []) out.push({ kind, at, node, rule });
    for (const [name, child] of Object.entries(node.properties ?? {})) walk(kind, child, at === '' ? name : `${at}.${name}`);
    if (node.items) walk(kind, node.items, `${at}[]`);
    if (typeof node.additionalProperties === 'object') walk(kind, node.additionalProperties, `${at}.*`);
  };
  for (const key of Object.keys(SCHEMA_MODULES).sort()) {
    const [apiVersion, kind] = key.split(' ');
    seen.clear();
    walk(kind, kindSchema(apiVersion, kind)!.schema, '');
  }
  return out;
}

const rules = allRules();
const distinct = (list: RuleAt[]) => [...new Set(list.map(r => r.rule.rule))];

test('the pinned CRDs hold 30 distinct rules a create is judged by, and transition rules the library skips', () => {
  const onCreate = rules.filter(r => r.rule.expr !== undefined);
  const transition = rules.filter(r => r.rule.transition);
  expect(onCreate.length + transition.length).toBe(rules.length);
  expect(distinct(transition).sort()).toEqual(['!has(oldSelf.topologyName) || self == oldSelf', 'self == oldSelf']);
  expect(distinct(onCreate).sort()).toEqual([
    '!(has(self.podExec) && has(self.jupyter)) && (has(self.podExec) || has(self.jupyter))',
    "!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == 'InOrder' && self.replicatedJobs.exists(x, has(x.dependsOn)))",
    '!(has(self.url) && has(self.configMap)) && (has(self.url) || has(self.configMap))',
    '!has(self.denyMessage) || (has(self.deny) && self.deny)',
    "!self.exists(c, c == 'node')",
    '(has(self.matchNamespace) ? 1 : 0) + (has(self.matchImageConfig) ? 1 : 0) + (has(self.matchPodConfig) ? 1 : 0) == 1',
    '[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1',
    'has(self.lastActivity) && self.lastActivity',
    'has(self.pauseWorkspace)',
    'has(self.ui) || has(self.api)',
    "self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')",
    'self >= 1',
    'self.minProbeIntervalSeconds <= self.probeIntervalSeconds',
    "self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']",
    "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    'self.templates.all(t, !has(t.metadata.namespace) || size(t.metadata.namespace) == 0)',
    'size(self.metadata.name) <= 63',
    // Kueue v0.15.2: ClusterQueue, ResourceFlavor, Topology.
    '!has(self.cohort) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit)))) : true',
    '!has(self.cohortName) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit)))) : true',
    "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')",
    "!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) &&  self.borrowWithinCohort.policy != 'Never')",
    'self.flavors.all(x, size(x.resources) == size(self.coveredResources))',
    '!has(self.topologyName) || self.nodeLabels.size() >= 1',
    "self.all(x, x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])",
    "self.all(x, !has(x.key) ? x.operator == 'Exists' : true)",
    "self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)",
    "self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])",
    "self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)",
    "self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])",
    'size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0',
    "size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0 || self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname'",
  ].sort());
});

/**
 * Values for `self` shaped like the node's schema: each declared property absent or present, with
 * scalars from pools that sit on each rule's edges (empty, `node`, URIs with and without a scheme,
 * names of 63 and 64 characters, 0 and 1), and lists of them.
 */
function valueOf(node: SchemaNode, depth = 0, name = ''): fc.Arbitrary<unknown> {
  const strings = fc.constantFrom('', 'node', 'x', 'InOrder', 'AnyOrder', 'hf://tatsu-lab/alpaca', 'hf//x', 's3://b/p', '1abc://x',
    'trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue', 'Job_1', 'a'.repeat(63), 'a'.repeat(64), 'job-1',
    // Kueue's rules: toleration operators and effects, preemption and fungibility policies, the hostname level.
    'Exists', 'Equal', 'NoExecute', 'NoSchedule', 'Never', 'TryNextFlavor', 'kubernetes.io/hostname');
  if (depth > 4) return fc.constant(undefined);
  switch (node.type) {
    // A toleration's operator decides most of Kueue's toleration rules: drawn from its own values more often.
    case 'string': return name === 'operator' ? fc.oneof(fc.constantFrom('Exists', 'Equal'), strings) : strings;
    case 'integer': return fc.integer({ min: -2, max: 3 });
    case 'boolean': return fc.boolean();
    case 'array': return fc.array(node.items ? valueOf(node.items, depth + 1) : strings, { maxLength: 3 });
    default: {
      const props = Object.entries(node.properties ?? {}).slice(0, 12);
      if (props.length === 0) return fc.oneof(fc.constant({}), fc.dictionary(fc.constantFrom('a', 'b'), strings, { maxKeys: 2 }));
      // A few of the properties at a time, so that rules about "at most one" or "exactly one" see both sides.
      const record = (chosen: typeof props) => fc.record(Object.fromEntries(chosen.map(([key, child]) => [key, valueOf(child, depth + 1, key)])));
      return fc.subarray(props, { maxLength: Math.min(3, props.length) }).chain(record);
    }
  }
}

/** @bufbuild/cel's verdict: integers as CEL ints (BigInt), as the API server types them from the schema. */
function reference(rule: string, self: unknown): boolean | 'error' {
  const toCel = (v: unknown): unknown => {
    if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
    if (Array.isArray(v)) return v.map(toCel);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, toCel(x)]));
    return v;
  };
  const result = celRun(rule, { self: toCel(self) as never });
  if (isCelError(result)) return 'error';
  if (typeof result !== 'boolean') throw new Error(`${rule} gave ${String(result)}`);
  return result;
}

function ours(expr: CelExpr, self: unknown): boolean | 'error' {
  const drop = (v: unknown): unknown => Array.isArray(v) ? v.map(drop)
    : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, drop(x)])) : v;
  const result = evaluate(expr, drop(self));
  return result instanceof CelError ? 'error' : result as boolean;
}

describe('the evaluator agrees with @bufbuild/cel on every rule', () => {
  const byRule = new Map<string, RuleAt>();
  for (const r of rules) if (r.rule.expr && !byRule.has(r.rule.rule)) byRule.set(r.rule.rule, r);
  test.each([...byRule.values()].map(r => [`${r.kind} ${r.at || '(root)'}: ${r.rule.rule}`, r] as const))('%s', (_name, r) => {
    expect(() => celParse(r.rule.rule)).not.toThrow();
    // The root rules read metadata, which the schema leaves free-form: give it a name to read.
    const node: SchemaNode = r.at === '' ? { ...r.node, properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } } } : r.node;
    const outcomes = new Set<string>();
    fc.assert(fc.property(valueOf(node), self => {
      const expected = reference(r.rule.rule, self);
      outcomes.add(String(expected));
      expect({ self, verdict: ours(r.rule.expr!, self) }).toEqual({ self, verdict: expected });
    }), { numRuns: RUNS, seed: 21 });
    // The values reach both outcomes of the rule, so the comparison is not vacuous.
    expect(outcomes.has('true') && (outcomes.has('false') || outcomes.has('error'))).toBe(true);
  });
});

describe('at synth: the CRD rules on what the constructs write', () => {
  function synthErrors(build: (chart: Chart) => void): string {
    const app = Testing.app();
    build(new Chart(app, 'team', { namespace: 'team-a' }));
    try {
      app.synth();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('synth succeeded');
  }

  test('a managedBy that the TrainJob CRD\'s rule refuses, written by a patch', () => {
    expect(synthErrors(chart => {
      const job = new TrainJob(chart, 'job', { metadata: { name: 'job' }, runtime: TrainingRuntimeRef.providedByCluster('torch-distributed') });
      job.apiObject.addJsonPatch(JsonPatch.add('/spec/managedBy', 'example.com/my-controller'));
    })).toBe([
      'Validation failed with the following errors:',
      "  [team/job] spec.managedBy is \"example.com/my-controller\"; expected a value the CRD's validation rule accepts: ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set (x-kubernetes-validations: self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue'])",
    ].join('\n'));
  });

  test('a runtime with two ML policies', () => {
    expect(synthErrors(chart => {
      const runtime = new ClusterTrainingRuntime(chart, 'rt', { metadata: { name: 'torch' }, mlPolicy: MlPolicy.torch(), image: 'pytorch/pytorch:2.5.0' });
      runtime.apiObject.addJsonPatch(JsonPatch.add('/spec/mlPolicy/mpi', { numProcPerNode: 1 }));
    })).toBe([
      'Validation failed with the following errors:',
      "  [team/rt] spec.mlPolicy is {\"numNodes\":1,\"torch\":{},\"mpi\":{\"numProcPerNode\":1}}; expected a value the CRD's validation rule accepts: Only one of the policy can be configured (x-kubernetes-validations: [has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1)",
    ].join('\n'));
  });

  test('a bound the typed classes cannot express: 129 args where the TrainJob CRD allows 128', () => {
    const args = Array.from({ length: 129 }, (_, i) => `--flag-${i}`);
    const message = synthErrors(chart => new TrainJob(chart, 'job', { metadata: { name: 'job' }, runtime: TrainingRuntimeRef.providedByCluster('torch-distributed'), args }));
    expect(message.split('\n')[1]).toMatch(/^ {2}\[team\/job\] spec\.trainer\.args(?: \(args\))? is \["--flag-0", .*"--flag-128"\]; expected at most 128 items$/);
  });
});

describe('lint: the same rules on YAML', () => {
  test('a TrainJob whose name the CRD\'s rule refuses, and a storageUri without a scheme', () => {
    const doc = {
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'Fine_Tune', namespace: 'team-a' },
      spec: { runtimeRef: { name: 'torch-distributed' }, initializer: { dataset: { storageUri: 'hf//tatsu-lab/alpaca' } } },
    };
    expect(schemaFindings(doc)).toEqual([
      {
        field: 'spec.initializer.dataset.storageUri',
        value: 'hf//tatsu-lab/alpaca',
        allowed: "expected a value the CRD's validation rule accepts: storageUri may be empty, or it must be a valid URI (scheme://...) (x-kubernetes-validations: self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$'))",
        rule: 'library/schema',
      },
      {
        field: 'metadata.name',
        value: 'Fine_Tune',
        allowed: "expected a value the CRD's validation rule accepts: metadata.name must match RFC 1035 DNS label format (x-kubernetes-validations: self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$'))",
        rule: 'library/schema',
      },
    ]);
  });

  test('defaults count: the culling probe\'s interval rule reads two fields the CRD defaults', () => {
    const kind = (probe: object) => ({
      apiVersion: 'kubeflow.org/v1beta1',
      kind: 'WorkspaceKind',
      metadata: { name: 'jupyterlab' },
      spec: { podTemplate: { activityProbe: { jupyter: { lastActivity: true }, ...probe } } },
    });
    const ruleFindings = (probe: object) => (schemaFindings(kind(probe)) ?? []).filter(f => f.allowed.includes('minProbeIntervalSeconds'));
    // Both absent: the API server fills in 300 and 3600 before the rule reads them.
    expect(ruleFindings({})).toEqual([]);
    expect(ruleFindings({ minProbeIntervalSeconds: 30, probeIntervalSeconds: 60 })).toEqual([]);
    expect(ruleFindings({ probeIntervalSeconds: 60 })).toHaveLength(1);
    // 7200 against the default 3600 fails, as on a cluster.
    expect(ruleFindings({ minProbeIntervalSeconds: 7200 })).toEqual([{
      field: 'spec.podTemplate.activityProbe',
      value: { jupyter: { lastActivity: true }, minProbeIntervalSeconds: 7200 },
      allowed: "expected a value the CRD's validation rule accepts: minProbeIntervalSeconds must be less than or equal to probeIntervalSeconds (x-kubernetes-validations: self.minProbeIntervalSeconds <= self.probeIntervalSeconds)",
      rule: 'library/schema',
    }]);
  });
});
