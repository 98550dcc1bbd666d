import * as fs from 'fs';
import * as path from 'path';
import { CrdBound, crdBounds } from '../../../scripts/inventory/crd-schema';
import { CRD_SCHEMA_FILE, crdSchemaInventoryText } from '../../../scripts/inventory/crd-schema-file';
import { kindSchema, schemaFindings } from '../../../src/rules/schema';
import { join } from '../../../src/rules/schema/checks';
import { SchemaNode } from '../../../src/rules/schema/schema-node';
import { violations } from '../../../src/rules/schema/validator';
import { Violation } from '../../../src/rules/schema/violation';

/**
 * The generated part of the rules inventory: every bound and CEL rule of the pinned CRDs. Each row
 * that claims the strict schema validator (`library/schema`) covers it is broken here, alone, against
 * the compact schema the validator uses at synth and in `lint`, and the validator must report that
 * very problem at that very path.
 */

const root = path.resolve(__dirname, '..', '..', '..');
const bounds = crdBounds(root);

// A value of `self` that breaks each CEL rule of the pinned CRDs (the rules are listed in
// test/rules/schema/cel.test.ts; a new rule fails the test below until it gets a value here).
const BREAKS_RULE: Record<string, unknown> = {
  '!(has(self.podExec) && has(self.jupyter)) && (has(self.podExec) || has(self.jupyter))': {},
  "!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == 'InOrder' && self.replicatedJobs.exists(x, has(x.dependsOn)))":
    { startupPolicy: { startupPolicyOrder: 'InOrder' }, replicatedJobs: [{ name: 'a', dependsOn: [{ name: 'b', status: 'Ready' }] }] },
  '!(has(self.url) && has(self.configMap)) && (has(self.url) || has(self.configMap))': {},
  '!has(self.denyMessage) || (has(self.deny) && self.deny)': { denyMessage: 'no' },
  "!self.exists(c, c == 'node')": ['node'],
  '(has(self.matchNamespace) ? 1 : 0) + (has(self.matchImageConfig) ? 1 : 0) + (has(self.matchPodConfig) ? 1 : 0) == 1': {},
  '[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1': { torch: {}, mpi: {} },
  'has(self.lastActivity) && self.lastActivity': { lastActivity: false },
  'has(self.pauseWorkspace)': {},
  'has(self.ui) || has(self.api)': {},
  "self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')": 'no-scheme',
  'self >= 1': 0,
  'self.minProbeIntervalSeconds <= self.probeIntervalSeconds': { minProbeIntervalSeconds: 60, probeIntervalSeconds: 30 },
  "self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']": 'example.com/other',
  "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')": { metadata: { name: 'Not_A_Label' } },
  'self.templates.all(t, !has(t.metadata.namespace) || size(t.metadata.namespace) == 0)': { templates: [{ metadata: { namespace: 'other' } }] },
  'size(self.metadata.name) <= 63': { metadata: { name: 'a'.repeat(64) } },
  // Kueue v0.15.2 (v1beta2, the version the library writes): ClusterQueue, ResourceFlavor, Topology.
  '!has(self.cohortName) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit)))) : true':
    { resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: 1, borrowingLimit: 1 }] }] }] },
  "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')":
    { preference: 'BorrowingOverPreemption', whenCanBorrow: 'MayStopSearch', whenCanPreempt: 'TryNextFlavor' },
  "!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) &&  self.borrowWithinCohort.policy != 'Never')":
    { reclaimWithinCohort: 'Never', withinClusterQueue: 'Never', borrowWithinCohort: { policy: 'LowerPriority' } },
  'self.flavors.all(x, size(x.resources) == size(self.coveredResources))':
    { coveredResources: ['cpu', 'memory'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: 1 }] }] },
  '!has(self.topologyName) || self.nodeLabels.size() >= 1': { topologyName: 't', nodeLabels: {} },
  "self.all(x, x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])": [{ key: 'k', effect: 'Sometimes' }],
  "self.all(x, !has(x.key) ? x.operator == 'Exists' : true)": [{ operator: 'Equal' }],
  "self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)": [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }],
  "self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])": [{ key: 'k', operator: 'Matches' }],
  "self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)": [{ key: 'k', operator: 'Exists', value: 'v' }],
  "self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])": [{ key: 'k', operator: 'Exists', effect: 'Sometimes' }],
  'size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0': [{ nodeLabel: 'rack' }, { nodeLabel: 'rack' }],
  "size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0 || self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname'":
    [{ nodeLabel: 'kubernetes.io/hostname' }, { nodeLabel: 'rack' }],
};

/** The compact schema node at a schema path (`a.b`, `a[]`, `a.*`), and the concrete path of a value there. */
function nodeAt(b: CrdBound): { node: SchemaNode; at: string } {
  let node: SchemaNode | undefined = kindSchema(b.apiVersion, b.kind)?.schema;
  let at = '';
  for (const part of b.at === '' ? [] : b.at.split('.')) {
    const [name, ...lists] = part.split('[]');
    if (name === '*') {
      node = typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined;
      at = join(at, 'key');
    } else {
      node = node?.properties?.[name];
      at = join(at, name);
    }
    for (let i = 0; i < lists.length; i++) {
      node = node?.items;
      at = `${at}[0]`;
    }
    if (node === undefined) throw new Error(`${b.row.id}: the compact schema has no node at ${b.at}`);
  }
  return { node: node!, at };
}

/** A scalar of the node's type (for list keys and set items). */
function sample(node: SchemaNode | undefined): unknown {
  return node?.type === 'integer' || node?.type === 'number' ? 1 : node?.type === 'boolean' ? true : 'a';
}

/** A string the pattern refuses. */
function notMatching(pattern: string): string {
  const candidates = ['', '-', ' ', '!', 'A', '_', 'a b', '0', '/', 'a'.repeat(300)];
  const found = candidates.find(c => !new RegExp(pattern, 'u').test(c));
  if (found === undefined) throw new Error(`no candidate breaks the pattern ${pattern}`);
  return found;
}

/** The value that breaks the row's bound, and the problem the validator must report (path, kind). */
function breaking(b: CrdBound, node: SchemaNode, at: string): { value: unknown; expect: { at: string; kind: string; rule?: string } } {
  const item = () => (node.items?.type === 'object' ? {} : sample(node.items));
  switch (b.keyword) {
    case 'minLength': return { value: 'a'.repeat(node.minLength! - 1), expect: { at, kind: 'minLength' } };
    case 'maxLength': return { value: 'a'.repeat(node.maxLength! + 1), expect: { at, kind: 'maxLength' } };
    case 'pattern': return { value: notMatching(node.pattern!), expect: { at, kind: 'pattern' } };
    case 'enum': return { value: node.type === 'string' ? 'NotListed' : 123456, expect: { at, kind: 'enum' } };
    case 'minimum': return { value: node.exclusiveMinimum ? node.minimum! : node.minimum! - 1, expect: { at, kind: 'minimum' } };
    case 'maximum': return { value: node.exclusiveMaximum ? node.maximum! : node.maximum! + 1, expect: { at, kind: 'maximum' } };
    case 'minItems': return { value: Array.from({ length: node.minItems! - 1 }, item), expect: { at, kind: 'minItems' } };
    case 'maxItems': return { value: Array.from({ length: node.maxItems! + 1 }, (_, i) => (node.items?.type === 'object' ? {} : `a${i}`)), expect: { at, kind: 'maxItems' } };
    case 'minProperties': return { value: {}, expect: { at, kind: 'minProperties' } };
    case 'maxProperties': return { value: Object.fromEntries(Array.from({ length: node.maxProperties! + 1 }, (_, i) => [`f${i}`, 'a'])), expect: { at, kind: 'maxProperties' } };
    case 'format': return { value: '2024-13-01 noon', expect: { at, kind: 'format' } };
    case 'required': return { value: {}, expect: { at: join(at, String(b.detail)), kind: 'required' } };
    case 'list-set': { const v = sample(node.items); return { value: [v, v], expect: { at: `${at}[1]`, kind: 'duplicate' } }; }
    case 'list-map-keys': {
      const keys = node['x-kubernetes-list-map-keys'] as string[];
      const entry = Object.fromEntries(keys.map(k => [k, sample(node.items?.properties?.[k])]));
      return { value: [entry, { ...entry }], expect: { at: `${at}[1]`, kind: 'duplicate' } };
    }
    case 'x-kubernetes-validations': {
      const rule = node['x-kubernetes-validations']![b.detail as number].rule;
      if (!(rule in BREAKS_RULE)) throw new Error(`${b.row.id}: no breaking value for the CEL rule ${rule}`);
      return { value: BREAKS_RULE[rule], expect: { at, kind: 'rule', rule } };
    }
    default: throw new Error(`${b.row.id}: no way to break ${b.keyword}`);
  }
}

/** The problem the row expects, if the validator reports it; a description of what it reported otherwise. */
function check(b: CrdBound): string | undefined {
  const { node, at } = nodeAt(b);
  const { value, expect: want } = breaking(b, node, at);
  const found: Violation[] = violations(node, value, at);
  const hit = found.some(v => (want.kind === 'rule' ? v.at.startsWith(want.at) : v.at === want.at)
    && v.problem.kind === want.kind && (want.rule === undefined || (v.problem.kind === 'rule' && v.problem.rule === want.rule && v.problem.error === undefined)));
  return hit ? undefined : `${b.row.id}: ${JSON.stringify(value).slice(0, 80)} at ${at} gave ${JSON.stringify(found.map(v => `${v.at} ${v.problem.kind}`))}, expected ${want.kind} at ${want.at}`;
}

test('the committed inventory/crd-schema.generated.yaml is what scripts/inventory.ts generates (run `npx projen inventory`)', () => {
  expect(fs.readFileSync(path.join(root, 'inventory', CRD_SCHEMA_FILE), 'utf8')).toBe(crdSchemaInventoryText(root));
});

test('the rows: every bound and CEL rule of the 18 pinned kinds, ids unique', () => {
  const kinds = [...new Set(bounds.map(b => b.kind))];
  expect(kinds.sort()).toEqual(['ClusterQueue', 'ClusterTrainingRuntime', 'Cohort', 'JAXJob', 'LocalQueue', 'MPIJob', 'MXJob', 'PaddleJob', 'PyTorchJob',
    'ResourceFlavor', 'TFJob', 'Topology', 'TrainJob', 'TrainingRuntime', 'WorkloadPriorityClass', 'Workspace', 'WorkspaceKind', 'XGBoostJob']);
  expect(new Set(bounds.map(b => b.row.id)).size).toBe(bounds.length);
  const byKeyword: Record<string, number> = {};
  for (const b of bounds) byKeyword[b.keyword] = (byKeyword[b.keyword] ?? 0) + 1;
  expect(byKeyword).toEqual({
    'enum': 40,
    'format': 1290,
    'list-map-keys': 264,
    'list-set': 29,
    'maxItems': 55,
    'maxLength': 97,
    'maxProperties': 1,
    'maximum': 5,
    'minItems': 15,
    'minLength': 67,
    'minProperties': 5,
    'minimum': 21,
    'pattern': 257,
    'required': 2810,
    'x-kubernetes-validations': 76,
  });
});

describe.each([...new Set(bounds.map(b => b.kind))])('%s: every covered row, broken alone, is the validator\'s finding at its path', kind => {
  const mine = bounds.filter(b => b.kind === kind && b.row.rules !== undefined);
  test(`${mine.length} covered rows`, () => {
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map(check).filter(p => p !== undefined)).toEqual([]);
  });
});

test('a row whose bound the compact schema lost fails the check (the check can fail)', () => {
  const row = bounds.find(b => b.kind === 'TrainJob' && b.keyword === 'maxLength')!;
  expect(check(row)).toBeUndefined();
  expect(check({ ...row, at: 'spec.suspend', keyword: 'maxLength' } as CrdBound)).toMatch(/^crd-schema\/TrainJob\/.*expected maxLength at spec.suspend$/);
});

test('rows not judged: transition rules, status, integer formats; every other row is covered', () => {
  const reasons = bounds.filter(b => b.row.reason !== undefined);
  for (const b of reasons) {
    const transition = b.keyword === 'x-kubernetes-validations' && /oldSelf/.test(b.row.checks);
    const status = b.at === 'status' || b.at.startsWith('status.');
    const intFormat = b.keyword === 'format' && /int(32|64)/.test(b.row.checks);
    expect({ id: b.row.id, judged: transition || status || intFormat }).toEqual({ id: b.row.id, judged: true });
  }
  expect(bounds.filter(b => b.row.reason === undefined).every(b => b.row.rules?.join() === 'library/schema')).toBe(true);
});

describe('the two bounds the inventory found unchecked, as findings', () => {
  const runtime = (spec: unknown) => ({ apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainingRuntime', metadata: { name: 'r' }, spec });

  test('a runtime spec or template with no field set (minProperties 1)', () => {
    expect(schemaFindings(runtime({ template: {} }))).toEqual([
      { field: 'spec.template', value: {}, allowed: 'expected at least 1 field set', rule: 'library/schema' },
    ]);
    expect(schemaFindings(runtime({}))?.map(f => `${f.field}: ${f.allowed}`)).toEqual([
      'spec: expected at least 1 field set',
    ]);
  });

  test('a TrainJob runtime patch time that is not an RFC 3339 date-time', () => {
    const job = (time: string) => ({
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'j' },
      spec: { runtimeRef: { name: 'torch-distributed' }, runtimePatches: [{ manager: 'example.com/m', time }] },
    });
    expect(schemaFindings(job('2024-02-30T10:00:00Z'))).toEqual([{
      field: 'spec.runtimePatches[0].time',
      value: '2024-02-30T10:00:00Z',
      allowed: 'expected a date-time string (RFC 3339, such as 2024-01-31T12:00:00Z)',
      rule: 'library/schema',
    }]);
    for (const good of ['2024-02-29T10:00:00Z', '2024-01-31t23:59:59.5+05:30']) expect(schemaFindings(job(good))).toEqual([]);
    for (const bad of ['2024-01-31', '2024-01-31T24:00:00Z', '2024-01-31T10:00:00', 'yesterday']) {
      expect(schemaFindings(job(bad))?.map(f => f.field)).toEqual(['spec.runtimePatches[0].time']);
    }
  });
});
