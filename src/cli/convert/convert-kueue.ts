/**
 * The L2 mappers of Kueue's six v1beta2 kinds (convert reads a v1beta1 object in its v1beta2 form,
 * src/rules/kueue/v1beta2-form.ts, and writes v1beta2): for each, the Kueue objects it names, what
 * of an object its construct cannot say, and the construct's code once the objects it names have
 * variables. What each construct renders (src/kueue/):
 * - `KueueTopology`: metadata and `spec.levels`, each level a `nodeLabel`;
 * - `WorkloadPriorityClass`: metadata, `value` and `description`;
 * - `ResourceFlavor`: metadata and a `spec` (always written, `{}` when empty, which Kueue reads as
 *   no spec: its Go type's zero spec) with node labels, taints (key, value, effect), tolerations and
 *   the Topology's name;
 * - `Cohort`: metadata and a `spec` with the parent's name, resource groups (as a ClusterQueue's)
 *   and fair-sharing weight;
 * - `ClusterQueue`: metadata and a `spec` with `cohortName`, `namespaceSelector` (always written, `{}` by
 *   default), preemption, queueing strategy, fair-sharing weight (a string quantity), admission
 *   checks by name (`admissionChecksStrategy.admissionChecks[].name`) and resource groups whose
 *   `coveredResources` are the first flavor's resources (its `flavorFungibility`, which it has no
 *   prop for, by a JSON patch);
 * - `LocalQueue`: metadata with its namespace and `spec.clusterQueue`.
 * Metadata is written as given, but empty label or annotation maps, which cdk8s leaves out. The
 * cluster-scoped constructs drop a namespace, so an object of theirs that has one is not theirs to say.
 * A quota amount written as a number is written back as a string (`nominalQuota: 8` is `"8"`): the
 * same quantity to the API server and to Kueue (kueueAsWritten says what the constructs' output is
 * compared with).
 * convert-kueue-links.ts decides which objects the constructs say and links them up.
 */
import { Expr, array, call, json, object, print, quoteString } from './convert-code';
import { isObject as isMap } from '../../rules/kubernetes/names';
import { KUEUE_API_VERSION } from '../../rules/kueue/api';
import { kueueV1beta2Form } from '../../rules/kueue/v1beta2-form';

/** A Kueue object another one names: its kind and `metadata.name`. */
export interface KueueReference {
  readonly kind: KueueKind;
  readonly name: string;
  /**
   * Whether the construct can name the object without a construct of it (a Cohort, by
   * `Cohort.fromName`): then an object the input does not define, or one that cannot be linked,
   * does not keep the naming object from its construct.
   */
  readonly byName?: boolean;
}

export type KueueKind = 'Topology' | 'WorkloadPriorityClass' | 'ResourceFlavor' | 'Cohort' | 'ClusterQueue' | 'LocalQueue';

/** The code of a construct and what the module imports for it. */
export interface KueueCode {
  readonly code: string;
  readonly imports: readonly string[];
  /**
   * JSON patches on the construct's `apiObject` for fields it has no prop for (`JsonPatch.add(...)`
   * expressions), with why each is there, one comment each.
   */
  readonly patches?: ReadonlyArray<{ readonly op: string; readonly why: string }>;
}

/** What convert knows of one kind's construct. */
export interface KueueMapper {
  /** The construct's class, as the package exports it. */
  readonly construct: string;
  /** The Kueue objects `doc` names, which the construct takes as constructs. */
  references(doc: any): KueueReference[];
  /** What of `doc` the construct does not say (empty when it says all of it). */
  unsaid(doc: any): string[];
  /**
   * The expression that creates the construct; `variable` gives the expression of an object `doc`
   * names (its variable, or `Cohort.fromName(...)` for a reference by name).
   */
  code(doc: any, chart: string, id: string, variable: (ref: KueueReference) => string): KueueCode;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringMap = (v: unknown) => isMap(v) && Object.values(v).every(isString);
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);
/** Keys of `v` outside `allowed`, as `at.key`; `[at]` when `v` is not a map. */
const outside = (v: unknown, allowed: readonly string[], at: string) =>
  (isMap(v) ? Object.keys(v).filter(k => !allowed.includes(k)).map(k => `${at}.${k}`) : [at]);
const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });
const callCode = (callee: string, args: readonly Expr[]): Expr => call(callee, args, () => undefined);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
/** The imports of code that names a Cohort by name. */
const cohortImports = (code: string) => (code.startsWith('Cohort.fromName(') ? ['cdk8s-kubeflow Cohort'] : []);

/** What the construct does not say of `metadata` (namespaced: whether the construct writes a namespace). */
function metadataUnsaid(doc: any, namespaced: boolean): string[] {
  const m = doc.metadata;
  const allowed = namespaced ? ['name', 'namespace', 'labels', 'annotations'] : ['name', 'labels', 'annotations'];
  const out = outside(m, allowed, 'metadata').map(f => (f === 'metadata.namespace'
    ? 'metadata.namespace (the construct is cluster-scoped and writes none)' : f));
  if (!isString(m?.name)) out.push('an object without metadata.name');
  for (const field of ['labels', 'annotations']) {
    if (m?.[field] !== undefined && (!isStringMap(m[field]) || Object.keys(m[field]).length === 0)) {
      out.push(`metadata.${field} as written (cdk8s leaves an empty map out)`);
    }
  }
  if (namespaced && m?.namespace !== undefined && !isString(m.namespace)) out.push('metadata.namespace as written');
  return out;
}

const topLevelUnsaid = (doc: any, allowed: readonly string[]) =>
  Object.keys(doc).filter(k => !['apiVersion', 'kind', 'metadata', ...allowed].includes(k));

const construct = (className: string, chart: string, id: string, props: Array<[string, Expr]>) =>
  `new ${className}(${chart}, ${quoteString(id)}, ${print(object(props))})`;

const topology: KueueMapper = {
  construct: 'KueueTopology',
  references: () => [],
  unsaid: doc => [
    ...metadataUnsaid(doc, false),
    ...topLevelUnsaid(doc, ['spec']),
    ...outside(doc.spec, ['levels'], 'spec'),
    ...Array.isArray(doc.spec?.levels) && doc.spec.levels.every((l: unknown) => isMap(l) && Object.keys(l).join() === 'nodeLabel' && isString(l.nodeLabel))
      ? [] : ['spec.levels other than a list of nodeLabels'],
  ],
  code: (doc, chart, id) => ({
    code: construct('KueueTopology', chart, id, [
      ['metadata', json(doc.metadata)],
      ['levels', json(doc.spec.levels.map((l: any) => l.nodeLabel))],
    ]),
    imports: ['cdk8s-kubeflow KueueTopology'],
  }),
};

const priorityClass: KueueMapper = {
  construct: 'WorkloadPriorityClass',
  references: () => [],
  unsaid: doc => [
    ...metadataUnsaid(doc, false),
    ...topLevelUnsaid(doc, ['value', 'description']),
    ...Number.isInteger(doc.value) ? [] : ['a value that is not an integer'],
    ...doc.description === undefined || isString(doc.description) ? [] : ['description as written'],
  ],
  code: (doc, chart, id) => ({
    code: construct('WorkloadPriorityClass', chart, id, [
      ['metadata', json(doc.metadata)],
      ['value', json(doc.value)],
      ...doc.description === undefined ? [] : [['description', json(doc.description)] as [string, Expr]],
    ]),
    imports: ['cdk8s-kubeflow WorkloadPriorityClass'],
  }),
};

const TAINT_KEYS = ['key', 'value', 'effect'];
const TOLERATION_KEYS = ['key', 'operator', 'value', 'effect', 'tolerationSeconds'];

const flavor: KueueMapper = {
  construct: 'ResourceFlavor',
  references: doc => (isString(doc.spec?.topologyName) ? [{ kind: 'Topology', name: doc.spec.topologyName }] : []),
  unsaid: doc => {
    const spec = doc.spec;
    return [
      ...metadataUnsaid(doc, false),
      ...topLevelUnsaid(doc, ['spec']),
      // Without spec, the construct writes `spec: {}`: Kueue reads both as its Go type's zero spec.
      ...spec === undefined ? [] : outside(spec, ['nodeLabels', 'nodeTaints', 'tolerations', 'topologyName'], 'spec'),
      ...spec?.nodeLabels === undefined || isStringMap(spec.nodeLabels) ? [] : ['spec.nodeLabels as written'],
      ...spec?.nodeTaints === undefined || (Array.isArray(spec.nodeTaints) && spec.nodeTaints.every((t: unknown) =>
        isMap(t) && outside(t, TAINT_KEYS, '').length === 0 && Object.values(t).every(isString) && isString(t.key) && isString(t.effect)))
        ? [] : ['spec.nodeTaints beyond key, value and effect (timeAdded is a Date the construct writes with milliseconds)'],
      ...spec?.tolerations === undefined || (Array.isArray(spec.tolerations) && spec.tolerations.every((t: unknown) =>
        isMap(t) && outside(t, TOLERATION_KEYS, '').length === 0
        && Object.entries(t).every(([k, v]) => (k === 'tolerationSeconds' ? Number.isInteger(v) : isString(v)))))
        ? [] : ['spec.tolerations as written'],
      ...spec?.topologyName === undefined || isString(spec.topologyName) ? [] : ['spec.topologyName as written'],
    ];
  },
  code: (doc, chart, id, variable) => {
    const spec = doc.spec ?? {};
    const props: Array<[string, Expr]> = [['metadata', json(doc.metadata)]];
    if (spec.nodeLabels !== undefined) props.push(['nodeLabels', json(spec.nodeLabels)]);
    if (spec.nodeTaints !== undefined) props.push(['nodeTaints', json(spec.nodeTaints)]);
    if (spec.tolerations !== undefined) props.push(['tolerations', json(spec.tolerations)]);
    if (spec.topologyName !== undefined) props.push(['topology', ref(variable({ kind: 'Topology', name: spec.topologyName }))]);
    return { code: construct('ResourceFlavor', chart, id, props), imports: ['cdk8s-kubeflow ResourceFlavor'] };
  },
};

const PREEMPTION: { readonly [value: string]: string } = {
  Never: 'NEVER', LowerPriority: 'LOWER_PRIORITY', LowerOrNewerEqualPriority: 'LOWER_OR_NEWER_EQUAL_PRIORITY', Any: 'ANY',
};
const QUEUEING: { readonly [value: string]: string } = { BestEffortFIFO: 'BEST_EFFORT_FIFO', StrictFIFO: 'STRICT_FIFO' };
const QUOTA_KEYS = ['name', 'nominalQuota', 'borrowingLimit', 'lendingLimit'];
const ACCELERATORS: { readonly [resourceName: string]: string } = { 'nvidia.com/gpu': 'nvidia', 'amd.com/gpu': 'amd', 'gpu.intel.com/i915': 'intel' };

/** The amounts of a quota, nominal first; undefined for a limit the quota does not set. */
const amounts = (q: any): unknown[] => [q.nominalQuota, q.borrowingLimit, q.lendingLimit];

/**
 * The `ResourceQuota` factory call that renders a quota as written, or undefined. The typed
 * factories where they write the amounts back as given (CPU as a string of units or millis,
 * memory and ephemeral storage as `<n>Gi`, or `<n>Mi` when not whole gibibytes, accelerators and
 * pods as numbers); `custom` for any other amounts written as strings.
 */
function quotaCode(q: any): { expr: Expr; imports: string[] } | undefined {
  const given = amounts(q);
  const set = given.filter(a => a !== undefined);
  // Trailing limits left out; a lending limit without a borrowing limit passes undefined for it.
  const last = given.reduce((n: number, a, i) => (a === undefined ? n : i + 1), 0);
  const args = (each: (a: any) => Expr) => given.slice(0, last).map(a => (a === undefined ? ref('undefined') : each(a)));
  const name: string = q.name;
  const quota = (factory: string, each: (a: any) => Expr, imports: string[], first: Expr[] = []) =>
    ({ expr: callCode(`ResourceQuota.${factory}`, [...first, ...args(each)]), imports: ['cdk8s-kubeflow ResourceQuota', ...imports] });
  // A whole number of CPUs may be written as a number (`nominalQuota: 8`): the same quantity as "8".
  if (name === 'cpu' && set.every(a => isCount(a) || (isString(a) && /^(0|[1-9]\d*)m?$/.test(a)))) {
    return quota('cpu', (a: string | number) => ref(isString(a) && a.endsWith('m') ? `Cpu.millis(${a.slice(0, -1)})` : `Cpu.units(${a})`), ['cdk8s-plus-28 Cpu']);
  }
  const sized = (a: unknown) => isString(a) && /^(0|[1-9]\d*)(Gi|Mi)$/.test(a) && (a.endsWith('Gi') || Number(a.slice(0, -2)) % 1024 !== 0);
  if ((name === 'memory' || name === 'ephemeral-storage') && set.every(sized)) {
    const factory = name === 'memory' ? 'memory' : 'ephemeralStorage';
    return quota(factory, (a: string) => ref(`Size.${a.endsWith('Gi') ? 'gibibytes' : 'mebibytes'}(${a.slice(0, -2)})`), ['cdk8s Size']);
  }
  if (name === 'pods' && set.every(isCount)) return quota('pods', json, []);
  if (name.includes('/') && set.every(isCount)) {
    // The nominal quota is the accelerator's count; the limits are plain numbers.
    const vendor = ACCELERATORS[name];
    const accelerator = vendor === undefined ? `Accelerator.custom(${quoteString(name)}, ${q.nominalQuota})` : `Accelerator.${vendor}(${q.nominalQuota})`;
    const [, ...limits] = args(json);
    return { expr: callCode('ResourceQuota.accelerator', [ref(accelerator), ...limits]), imports: ['cdk8s-kubeflow ResourceQuota', 'cdk8s-kubeflow Accelerator'] };
  }
  // Any other amounts as strings; a number is written as its string, the same quantity.
  if (set.every(a => isString(a) || (typeof a === 'number' && Number.isFinite(a)))) return quota('custom', a => json(String(a)), [], [json(name)]);
  return undefined;
}

/** What the construct does not say of a ClusterQueue's resource groups. */
function groupsUnsaid(groups: unknown): string[] {
  if (!Array.isArray(groups)) return ['a ClusterQueue without spec.resourceGroups (the construct writes them)'];
  return groups.flatMap((g: any, i: number) => {
    const at = `spec.resourceGroups[${i}]`;
    const flavors = Array.isArray(g?.flavors) ? g.flavors : [];
    const out = outside(g, ['coveredResources', 'flavors'], at);
    if (!Array.isArray(g?.flavors)) out.push(`${at} without flavors`);
    const first = (flavors[0]?.resources ?? []).map((q: any) => q?.name);
    if (!isStringList(g?.coveredResources) || JSON.stringify(g.coveredResources) !== JSON.stringify(first)) {
      out.push(`${at}.coveredResources other than the first flavor's resources in their order (the construct writes those)`);
    }
    flavors.forEach((f: any, j: number) => {
      out.push(...outside(f, ['name', 'resources'], `${at}.flavors[${j}]`));
      if (!isString(f?.name) || !Array.isArray(f?.resources)) out.push(`${at}.flavors[${j}] without a name and resources`);
      (Array.isArray(f?.resources) ? f.resources : []).forEach((q: any, k: number) => {
        const where = `${at}.flavors[${j}].resources[${k}]`;
        out.push(...outside(q, QUOTA_KEYS, where));
        if (!isString(q?.name) || q?.nominalQuota === undefined) out.push(`${where} without a name and nominalQuota`);
        else if (quotaCode(q) === undefined) out.push(`${where} as written (no ResourceQuota factory writes ${q.name} amounts ${amounts(q).filter(a => a !== undefined).map(a => JSON.stringify(a)).join(', ')})`);
      });
    });
    return out;
  });
}

/** The flavors a ClusterQueue's or a Cohort's resource groups name. */
const groupReferences = (spec: any): KueueReference[] => (Array.isArray(spec?.resourceGroups) ? spec.resourceGroups : [])
  .flatMap((g: any) => (Array.isArray(g?.flavors) ? g.flavors : []))
  .filter((f: any) => isString(f?.name))
  .map((f: any) => ({ kind: 'ResourceFlavor', name: f.name }));

/** The `resourceGroups` prop of resource groups `groupsUnsaid` accepts, adding the quota factories' imports to `imports`. */
function groupsCode(groups: any[], variable: (ref: KueueReference) => string, imports: string[]): Expr {
  return array(groups.map((g: any) => object([['flavors', array(g.flavors.map((f: any) => object([
    ['flavor', ref(variable({ kind: 'ResourceFlavor', name: f.name }))],
    ['quotas', array(f.resources.map((q: any) => {
      const c = quotaCode(q)!;
      imports.push(...c.imports);
      return c.expr;
    }))],
  ])))]])));
}

/** A fair-sharing weight the constructs say: `{weight}` with the weight as a string. */
const fairSharingSaid = (v: any) => v === undefined || (outside(v, ['weight'], '').length === 0 && isString(v.weight));

/** A cohort named by `cohortName` or `parentName`: a construct of the input, or by name. */
const cohortReference = (name: unknown): KueueReference[] => (isString(name) && name !== '' ? [{ kind: 'Cohort', name, byName: true }] : []);

const cohort: KueueMapper = {
  construct: 'Cohort',
  // In the order the construct adds its dependencies (flavors, then the parent), which cdk8s's order follows.
  references: doc => [...groupReferences(doc.spec), ...cohortReference(doc.spec?.parentName)],
  unsaid: doc => {
    const spec = doc.spec;
    return [
      ...metadataUnsaid(doc, false),
      ...topLevelUnsaid(doc, ['spec']),
      ...outside(spec, ['parentName', 'resourceGroups', 'fairSharing'], 'spec'),
      ...spec === undefined || isMap(spec) ? [] : ['spec as written'],
      ...spec?.parentName === undefined || isString(spec.parentName) ? [] : ['spec.parentName as written'],
      ...fairSharingSaid(spec?.fairSharing) ? [] : ['spec.fairSharing other than a weight written as a string'],
      ...spec?.resourceGroups === undefined ? [] : groupsUnsaid(spec.resourceGroups),
    ];
  },
  code: (doc, chart, id, variable) => {
    // A root cohort with no quota of its own has nothing in its spec (`{}`, or none at all).
    const spec = doc.spec ?? {};
    const imports = ['cdk8s-kubeflow Cohort'];
    const props: Array<[string, Expr]> = [['metadata', json(doc.metadata)]];
    if (isString(spec.parentName) && spec.parentName !== '') props.push(['parent', ref(variable({ kind: 'Cohort', name: spec.parentName }))]);
    if (spec.resourceGroups !== undefined) props.push(['resourceGroups', groupsCode(spec.resourceGroups, variable, imports)]);
    if (spec.fairSharing !== undefined) props.push(['fairSharingWeight', json(spec.fairSharing.weight)]);
    return { code: construct('Cohort', chart, id, props), imports };
  },
};

/** The admission checks of a v1beta2 strategy the construct writes: rules of a name only. */
const namedChecks = (strategy: any): string[] | undefined =>
  (isMap(strategy) && Object.keys(strategy).join() === 'admissionChecks' && Array.isArray(strategy.admissionChecks)
    && strategy.admissionChecks.every((c: unknown) => isMap(c) && Object.keys(c).join() === 'name' && isString(c.name))
    ? strategy.admissionChecks.map((c: any) => c.name) : undefined);

const queue: KueueMapper = {
  construct: 'ClusterQueue',
  // In the order the construct adds its dependencies (flavors, then the cohort), which cdk8s's order follows.
  references: doc => [...groupReferences(doc.spec), ...cohortReference(doc.spec?.cohortName)],
  unsaid: doc => {
    const spec = doc.spec;
    const p = spec?.preemption;
    const b = p?.borrowWithinCohort;
    const policy = (v: unknown) => v === undefined || (isString(v) && PREEMPTION[v] !== undefined);
    return [
      ...metadataUnsaid(doc, false),
      ...topLevelUnsaid(doc, ['spec']),
      ...outside(spec, ['cohortName', 'namespaceSelector', 'preemption', 'queueingStrategy', 'fairSharing', 'admissionChecksStrategy', 'resourceGroups',
        'flavorFungibility'], 'spec'),
      ...spec?.namespaceSelector === undefined ? ['a spec without namespaceSelector (the construct writes {}, every namespace)'] : [],
      ...spec?.cohortName === undefined || isString(spec.cohortName) ? [] : ['spec.cohortName as written'],
      ...spec?.queueingStrategy === undefined || QUEUEING[spec.queueingStrategy] !== undefined ? [] : ['spec.queueingStrategy as written'],
      ...p === undefined ? [] : outside(p, ['reclaimWithinCohort', 'withinClusterQueue', 'borrowWithinCohort'], 'spec.preemption'),
      ...policy(p?.reclaimWithinCohort) && policy(p?.withinClusterQueue) ? [] : ['spec.preemption policies as written'],
      ...b === undefined ? [] : [
        ...outside(b, ['policy', 'maxPriorityThreshold'], 'spec.preemption.borrowWithinCohort'),
        ...isString(b.policy) && policy(b.policy) ? [] : ['spec.preemption.borrowWithinCohort without a policy'],
        ...b.maxPriorityThreshold === undefined || Number.isInteger(b.maxPriorityThreshold) ? [] : ['spec.preemption.borrowWithinCohort.maxPriorityThreshold as written'],
      ],
      ...fairSharingSaid(spec?.fairSharing) ? [] : ['spec.fairSharing other than a weight written as a string'],
      ...spec?.admissionChecksStrategy === undefined || namedChecks(spec.admissionChecksStrategy) !== undefined
        ? [] : ['spec.admissionChecksStrategy other than admission checks by name'],
      ...spec === undefined ? [] : groupsUnsaid(spec.resourceGroups),
    ];
  },
  code: (doc, chart, id, variable) => {
    const spec = doc.spec;
    const imports = ['cdk8s-kubeflow ClusterQueue'];
    const props: Array<[string, Expr]> = [['metadata', json(doc.metadata)]];
    const policyRef = (v: string) => ref(`PreemptionPolicy.${PREEMPTION[v]}`);
    const groups = groupsCode(spec.resourceGroups, variable, imports);
    if (isString(spec.cohortName) && spec.cohortName !== '') {
      const cohortCode = variable({ kind: 'Cohort', name: spec.cohortName });
      props.push(['cohort', ref(cohortCode)]);
      imports.push(...cohortImports(cohortCode));
    }
    if (Object.keys(spec.namespaceSelector).length > 0 || !isMap(spec.namespaceSelector)) props.push(['namespaceSelector', json(spec.namespaceSelector)]);
    if (spec.preemption !== undefined) {
      const p = spec.preemption;
      const entries: Array<[string, Expr]> = [];
      if (p.reclaimWithinCohort !== undefined) entries.push(['reclaimWithinCohort', policyRef(p.reclaimWithinCohort)]);
      if (p.withinClusterQueue !== undefined) entries.push(['withinClusterQueue', policyRef(p.withinClusterQueue)]);
      if (p.borrowWithinCohort !== undefined) entries.push(['borrowWithinCohort', policyRef(p.borrowWithinCohort.policy)]);
      if (p.borrowWithinCohort?.maxPriorityThreshold !== undefined) entries.push(['borrowWithinCohortMaxPriorityThreshold', json(p.borrowWithinCohort.maxPriorityThreshold)]);
      props.push(['preemption', object(entries)]);
      if (entries.length > 0) imports.push('cdk8s-kubeflow PreemptionPolicy');
    }
    if (spec.queueingStrategy !== undefined) {
      props.push(['queueingStrategy', ref(`QueueingStrategy.${QUEUEING[spec.queueingStrategy]}`)]);
      imports.push('cdk8s-kubeflow QueueingStrategy');
    }
    if (spec.fairSharing !== undefined) props.push(['fairSharingWeight', json(spec.fairSharing.weight)]);
    if (spec.admissionChecksStrategy !== undefined) props.push(['admissionChecks', json(namedChecks(spec.admissionChecksStrategy))]);
    props.push(['resourceGroups', groups]);
    // The construct has no prop for flavor fungibility: a JSON patch adds it as written.
    const patches = spec.flavorFungibility === undefined ? [] : [{
      op: `JsonPatch.add('/spec/flavorFungibility', ${print(json(spec.flavorFungibility), '  ')})`,
      why: 'The ClusterQueue construct has no prop for spec.flavorFungibility: a JSON patch adds it',
    }];
    if (patches.length > 0) imports.push('cdk8s JsonPatch');
    return { code: construct('ClusterQueue', chart, id, props), imports, patches };
  },
};

const localQueue: KueueMapper = {
  construct: 'LocalQueue',
  references: doc => (isString(doc.spec?.clusterQueue) ? [{ kind: 'ClusterQueue', name: doc.spec.clusterQueue }] : []),
  unsaid: doc => [
    ...metadataUnsaid(doc, true),
    ...topLevelUnsaid(doc, ['spec']),
    ...outside(doc.spec, ['clusterQueue'], 'spec'),
    ...isString(doc.spec?.clusterQueue) ? [] : ['a spec without clusterQueue'],
  ],
  code: (doc, chart, id, variable) => ({
    code: construct('LocalQueue', chart, id, [
      ['metadata', json(doc.metadata)],
      ['clusterQueue', ref(variable({ kind: 'ClusterQueue', name: doc.spec.clusterQueue }))],
    ]),
    imports: ['cdk8s-kubeflow LocalQueue'],
  }),
};

/** The mappers by kind, for `kueue.x-k8s.io/v1beta2` objects (v1beta1 ones are read in their v1beta2 form). */
export const KUEUE_MAPPERS: { readonly [kind in KueueKind]: KueueMapper } = {
  Topology: topology,
  WorkloadPriorityClass: priorityClass,
  ResourceFlavor: flavor,
  Cohort: cohort,
  ClusterQueue: queue,
  LocalQueue: localQueue,
};

/** The kinds in the order their references allow deciding them: a kind names only kinds before it. */
export const KUEUE_KINDS: readonly KueueKind[] = ['Topology', 'WorkloadPriorityClass', 'ResourceFlavor', 'Cohort', 'ClusterQueue', 'LocalQueue'];

/**
 * A Kueue object as the API server and Kueue read it, for comparing the input with what the
 * generated module writes; the differences convert accepts, the only ones: a v1beta1 object is its
 * v1beta2 form (convert writes v1beta2), a quota amount written as a number is the same quantity
 * as its string (`8` is `"8"`), and a ResourceFlavor or a Cohort without spec is one with `spec: {}`
 * (Kueue's Go types have a zero spec either way). Any other document comes back as it is.
 */
export function kueueAsRead(doc: any): any {
  const form = kueueV1beta2Form(doc).doc;
  if (form?.apiVersion !== KUEUE_API_VERSION) return form;
  const out = JSON.parse(JSON.stringify(form));
  if ((out.kind === 'ResourceFlavor' || out.kind === 'Cohort') && out.spec === undefined) out.spec = {};
  for (const g of Array.isArray(out.spec?.resourceGroups) ? out.spec.resourceGroups : []) {
    for (const f of Array.isArray(g?.flavors) ? g.flavors : []) {
      for (const q of Array.isArray(f?.resources) ? f.resources : []) {
        for (const k of ['nominalQuota', 'borrowingLimit', 'lendingLimit']) if (typeof q?.[k] === 'number') q[k] = String(q[k]);
      }
    }
  }
  return out;
}
