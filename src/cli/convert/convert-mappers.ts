/**
 * The per-kind mappers of `convert`: for each object, the statement that adds it to its chart, and
 * how it says it (the tier `convert` counts). A kind with a typed class in the package (the pinned
 * CRDs' L1 in imports/) gets its class, with JSON patches for what the class cannot say; any other
 * object (Kueue's, a ConfigMap, a newer apiVersion) becomes a cdk8s `ApiObject` that holds its
 * fields as written. The kinds and their classes are the kind table's (src/kinds/).
 */
import { Expr, json, object, print, quoteString } from './convert-code';
import type { L2Mapping } from './convert-l2-mapping';
import { runtimeL2 } from './convert-runtime';
import { trainJobL2 } from './convert-train-job';
import { PatchedField, TypedClass, mapTyped, normalised } from './convert-typed';
import { v1JobL2 } from './convert-v1-job';
import { workspaceL2 } from './convert-workspace';
import { KindFacts, L1Class, apiVersionOf } from '../../kinds/kind';
import { KINDS } from '../../kinds/kind-table';
import type { Finding } from '../../rules/finding';
import { kindSchema } from '../../rules/schema';

/** How an object is said: by its L2 construct (with JSON patches for what it cannot say), its typed L1 class (with JSON patches), or a plain ApiObject. */
export type Tier = 'l2' | 'l2+patch' | 'l1' | 'l1+patch' | 'api-object';

/** The code that adds one object to a chart. */
export interface Statement {
  readonly tier: Tier;
  /** `apiVersion kind` of the object. */
  readonly kind: string;
  /** The lines (without the function body's indentation) of the statement and its comments. */
  readonly lines: readonly string[];
  /** What the module must import, as `module name` pairs (`cdk8s ApiObject`). */
  readonly imports: readonly string[];
}

/**
 * Adds one object to the chart held in `chart` under the construct id `id`; `findings` are what
 * `lint` finds in the object (an L2 construct would refuse it at synth).
 */
export type Mapper = (doc: any, chart: string, id: string, findings: readonly Finding[]) => Statement;

/* eslint-disable @typescript-eslint/no-require-imports */
/** The modules of imports/, loaded when a class of theirs is first needed. */
const L1_MODULES: { readonly [module in L1Class['module']]: () => any } = {
  kubeflow: () => require('../../../imports/kubeflow'),
  trainer: () => require('../../../imports/trainer'),
  notebooks: () => require('../../../imports/notebooks'),
  kueue: () => require('../../../imports/kueue'),
};
/* eslint-enable @typescript-eslint/no-require-imports */
const typed = ({ module, className }: L1Class): TypedClass =>
  ({ namespace: module, className, module: L1_MODULES[module], load: () => L1_MODULES[module]()[className] });

const NOTEBOOKS = 'its construct builds the pod template from props and options, and convert does not map a template back to props yet';
// convert-kueue-links.ts plans every object of these kinds; the row's text is never shown.
const KUEUE = 'its construct is planned with the Kueue objects it names';

/** The L2 mapper of a kind of the kind table, or why it has none. */
function l2Of(kind: KindFacts): L2Mapper | string {
  switch (kind.family) {
    case 'training-operator': return kind.l2 !== undefined ? v1JobL2 : `the package has no ${kind.kind} construct (the legacy kind has an L1 only)`;
    case 'kueue': return KUEUE;
    case 'trainer': return kind.kind === 'TrainJob' ? trainJobL2 : runtimeL2;
    case 'notebooks': return kind.kind === 'Workspace' ? workspaceL2 : NOTEBOOKS;
  }
}

/**
 * The kinds with a typed class in the package, by `apiVersion kind`: the class, and the L2 mapper
 * or why there is none (the comment on each object said by its L1). Every kind of the kind table
 * with an L1, in the version the package writes: convert reads v1beta1 Kueue objects in their
 * v1beta2 form, the version the package's classes write.
 */
const TYPED: { readonly [apiVersionKind: string]: { readonly l1: TypedClass; readonly l2: L2Mapper | string } } = Object.fromEntries(
  KINDS.filter(k => k.l1 !== undefined).map(k => [`${apiVersionOf(k)} ${k.kind}`, { l1: typed(k.l1!), l2: l2Of(k) }]),
);

/** An L2 mapper: the construct's code, or why the construct cannot say the object. */
type L2Mapper = (doc: any, chart: string, id: string, findings: readonly Finding[]) => L2Mapping;

/** Why an object without a mapper of its own is an ApiObject, by API group. */
const UNTYPED_GROUPS: { readonly [group: string]: string } = {
  'kueue.x-k8s.io': 'this Kueue kind or apiVersion has no typed class in this package (it types v1beta2 ResourceFlavor, ClusterQueue, LocalQueue, WorkloadPriorityClass, Topology and Cohort)',
  'kubeflow.org': 'this apiVersion of a Kubeflow kind has no pinned CRD, so no typed class',
  'trainer.kubeflow.org': 'this apiVersion of a Trainer kind has no pinned CRD, so no typed class',
};

const key = (doc: any) => `${doc.apiVersion} ${doc.kind}`;
const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * The mapper of an object; `planned` is its L2 code or why there is none when that depends on the
 * other objects of the input (the Kueue objects: convert-kueue-links.ts).
 */
export function mapperFor(doc: any, planned?: L2Mapping): Mapper {
  const t = TYPED[key(doc)];
  if (t === undefined) return apiObject;
  return (d, chart, id, findings) => {
    const l2 = planned ?? (typeof t.l2 === 'string' ? { cannot: `${d.kind}: ${t.l2}` } : t.l2(normalised(d), chart, id, findings));
    if ('code' in l2) {
      const patches = l2.patches ?? [];
      const tier = patches.length > 0 || l2.patched ? 'l2+patch' : 'l2';
      return { tier, kind: key(d), lines: [...patches.flatMap(comment), l2.code], imports: l2.imports };
    }
    // The typed class maps props by the kind's pinned schema; without one (a kind the schemas do not hold yet), an ApiObject.
    const why = l2.cannot.charAt(0).toUpperCase() + l2.cannot.slice(1);
    if (kindSchema(d.apiVersion, d.kind) === undefined) {
      const statement = apiObject(d, chart, id);
      return { ...statement, lines: [...comment(`${why}.`), ...statement.lines] };
    }
    return typedStatement(d, chart, id, t.l1, `${why}; its typed L1 class says it.`);
  };
}

/** `// text` lines, wrapped before 120 columns. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '//';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 118 && line !== '//') {
      lines.push(line);
      line = '//';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

function typedStatement(doc: any, chart: string, id: string, t: TypedClass, why: string): Statement {
  const mapped = mapTyped(doc, t);
  const patches = [...mapped.patches, ...unnamed(doc)];
  const props = mapped.props;
  const construct = `new ${t.namespace}.${t.className}(${chart}, ${quoteString(id)}, ${print(props)})`;
  const imports = [`cdk8s-kubeflow ${t.namespace}`];
  if (usesK8s(props)) imports.push('cdk8s-plus-28 k8s');
  if (patches.length === 0) return { tier: 'l1', kind: key(doc), lines: [...comment(why), `${construct};`], imports };
  imports.push('cdk8s JsonPatch');
  const lines = [
    ...comment(why),
    ...patches.flatMap(p => comment(`${p.reason}: a JSON patch ${p.op === 'add' ? 'sets' : 'removes'} it.`)),
    `${construct}.addJsonPatch(`,
    ...patches.map(p => `  ${patchCode(p, '  ')},`),
    ');',
  ];
  return { tier: 'l1+patch', kind: key(doc), lines, imports };
}

function patchCode(p: PatchedField, indent: string): string {
  const pointer = quoteString(`/${p.path.map(s => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`);
  return p.op === 'remove' ? `JsonPatch.remove(${pointer})` : `JsonPatch.add(${pointer}, ${print(json(p.value), indent)})`;
}

function usesK8s(e: Expr): boolean {
  switch (e.type) {
    case 'call': return e.callee.startsWith('k8s.') || e.args.some(usesK8s);
    case 'object': return e.entries.some(([, v]) => usesK8s(v));
    case 'array': return e.items.some(usesK8s);
    default: return false;
  }
}

/**
 * cdk8s names an object that has no `metadata.name` (one made with `generateName`, for
 * `kubectl create`); a patch takes that name out again.
 */
function unnamed(doc: any): PatchedField[] {
  return doc.metadata?.name === undefined || doc.metadata?.name === null
    ? [{ op: 'remove', path: ['metadata', 'name'], reason: 'The input has no metadata.name, and cdk8s would generate one' }]
    : [];
}

/** An ApiObject that holds the object's fields as written (cdk8s writes them through). */
function apiObject(doc: any, chart: string, id: string): Statement {
  const why = UNTYPED_GROUPS[group(String(doc.apiVersion))] ?? 'this package has no typed class for this kind';
  const props = object(Object.entries(doc).filter(([, v]) => v !== null).map(([k, v]) => [k, json(v)]));
  const construct = `new ApiObject(${chart}, ${quoteString(id)}, ${print(props)})`;
  const patches = unnamed(doc);
  const lines = patches.length === 0 ? [`${construct};`] : [
    ...patches.flatMap(p => comment(`${p.reason}: a JSON patch removes it.`)),
    `${construct}.addJsonPatch(`,
    ...patches.map(p => `  ${patchCode(p, '  ')},`),
    ');',
  ];
  return {
    tier: 'api-object',
    kind: key(doc),
    lines: [...comment(`${doc.kind} (${doc.apiVersion}): ${why}; an ApiObject writes its fields as given.`), ...lines],
    imports: patches.length === 0 ? ['cdk8s ApiObject'] : ['cdk8s ApiObject', 'cdk8s JsonPatch'],
  };
}
