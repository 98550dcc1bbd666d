/**
 * The per-kind mappers of `convert`: for each object, the statement that adds it to its chart, and
 * how it says it (the tier `convert` counts). A kind with a typed class in the package (the pinned
 * CRDs' L1 in imports/) gets its class, with JSON patches for what the class cannot say; any other
 * object (Kueue's, a ConfigMap, a newer apiVersion) becomes a cdk8s `ApiObject` that holds its
 * fields as written. A new kind is a row of MAPPERS.
 */
import { Expr, json, object, print, quoteString } from './convert-code';
import { PatchedField, TypedClass, mapTyped } from './convert-typed';

/** How an object is said: by its L2 construct, its typed L1 class, or a plain ApiObject. */
export type Tier = 'l2' | 'l1' | 'l1+patch' | 'api-object';

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

/** Adds one object to the chart held in `chart` under the construct id `id`. */
export type Mapper = (doc: any, chart: string, id: string) => Statement;

/* eslint-disable @typescript-eslint/no-require-imports */
const typed = (namespace: string, className: string, module: () => any): TypedClass => ({ namespace, className, module, load: () => module()[className] });
const kubeflowL1 = (name: string) => typed('kubeflow', name, () => require('../../imports/kubeflow'));
const trainerL1 = (name: string) => typed('trainer', name, () => require('../../imports/trainer'));
const notebooksL1 = (name: string) => typed('notebooks', name, () => require('../../imports/notebooks'));
/* eslint-enable @typescript-eslint/no-require-imports */

/** The kinds with a typed class in the package, by `apiVersion kind`. */
const TYPED: { readonly [apiVersionKind: string]: TypedClass } = {
  'kubeflow.org/v1 PyTorchJob': kubeflowL1('PyTorchJob'),
  'kubeflow.org/v1 TFJob': kubeflowL1('TfJob'),
  'kubeflow.org/v1 MPIJob': kubeflowL1('MpiJob'),
  'kubeflow.org/v1 XGBoostJob': kubeflowL1('XgBoostJob'),
  'kubeflow.org/v1 PaddleJob': kubeflowL1('PaddleJob'),
  'kubeflow.org/v1 JAXJob': kubeflowL1('JaxJob'),
  'kubeflow.org/v1 MXJob': kubeflowL1('MxJob'),
  'trainer.kubeflow.org/v1alpha1 TrainJob': trainerL1('TrainJob'),
  'trainer.kubeflow.org/v1alpha1 TrainingRuntime': trainerL1('TrainingRuntime'),
  'trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime': trainerL1('ClusterTrainingRuntime'),
  'kubeflow.org/v1beta1 Workspace': notebooksL1('Workspace'),
  'kubeflow.org/v1beta1 WorkspaceKind': notebooksL1('WorkspaceKind'),
};

/**
 * Why an object without a mapper of its own is an ApiObject, by API group. Kueue's kinds get typed
 * constructs of their own (issue #26 item 1); their row here then becomes a mapper.
 */
const UNTYPED_GROUPS: { readonly [group: string]: string } = {
  'kueue.x-k8s.io': 'Kueue objects have no typed class in this package yet',
  'kubeflow.org': 'this apiVersion of a Kubeflow kind has no pinned CRD, so no typed class',
  'trainer.kubeflow.org': 'this apiVersion of a Trainer kind has no pinned CRD, so no typed class',
};

const key = (doc: any) => `${doc.apiVersion} ${doc.kind}`;
const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** The mapper of an object. */
export function mapperFor(doc: any): Mapper {
  const t = TYPED[key(doc)];
  return t === undefined ? apiObject : (d, chart, id) => typedStatement(d, chart, id, t);
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

function typedStatement(doc: any, chart: string, id: string, t: TypedClass): Statement {
  const { props, patches } = mapTyped(doc, t);
  const construct = `new ${t.namespace}.${t.className}(${chart}, ${quoteString(id)}, ${print(props)})`;
  const imports = [`cdk8s-kubeflow ${t.namespace}`];
  if (usesK8s(props)) imports.push('cdk8s-plus-28 k8s');
  if (patches.length === 0) return { tier: 'l1', kind: key(doc), lines: [`${construct};`], imports };
  imports.push('cdk8s JsonPatch');
  const lines = [
    ...patches.flatMap(p => comment(`${p.reason}: set with a JSON patch.`)),
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

/** An ApiObject that holds the object's fields as written (cdk8s writes them through). */
const apiObject: Mapper = (doc, chart, id) => {
  const why = UNTYPED_GROUPS[group(String(doc.apiVersion))] ?? 'this package has no typed class for this kind';
  const props = object(Object.entries(doc).filter(([, v]) => v !== null).map(([k, v]) => [k, json(v)]));
  return {
    tier: 'api-object',
    kind: key(doc),
    lines: [...comment(`${doc.kind} (${doc.apiVersion}): ${why}; an ApiObject writes its fields as given.`), `new ApiObject(${chart}, ${quoteString(id)}, ${print(props)});`],
    imports: ['cdk8s ApiObject'],
  };
};
