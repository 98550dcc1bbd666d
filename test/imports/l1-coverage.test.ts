/**
 * Every leaf field path of every kind's spec must be reachable through the typed L1 props, with a
 * type that can carry its value. Checked with the TypeScript compiler on imports/*.ts, so the
 * cdk8s-plus-28 `k8s` types that the L1s reuse are resolved exactly as a user's compiler would.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import * as ts from 'typescript';
import { DEFAULT_CRD_ROOT as CRD_ROOT, MODULES } from '../../scripts/l1/generate';
import { kindSchemas, KindSchema, SchemaNode } from '../harness';
import { isQuantity, l1KindFor, propertyName } from '../harness/l1-from-json';

const ROOT = path.join(__dirname, '..', '..');

/** TypeScript type flags are bit sets. */
function hasFlag(flags: ts.TypeFlags, wanted: ts.TypeFlags): boolean {
  // eslint-disable-next-line no-bitwise
  return (flags & wanted) !== 0;
}

/** Where a leaf cannot be reached, or is typed so that its value cannot be expressed. */
interface Gap {
  readonly path: string;
  readonly problem: string;
}

interface Leaf {
  readonly path: string;
  readonly node: SchemaNode;
}

/**
 * Leaf paths of a schema: nodes without properties, items or an object of additionalProperties.
 * Map values are written `*`, list items `[]`.
 */
function leaves(node: SchemaNode, at: string, out: Leaf[] = []): Leaf[] {
  const props = node.properties ? Object.entries(node.properties) : [];
  const items = node.items;
  const values = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  if (props.length === 0 && !items && !values) {
    out.push({ path: at, node });
    return out;
  }
  for (const [name, sub] of props) leaves(sub, `${at}.${name}`, out);
  if (items) leaves(items, `${at}[]`, out);
  if (values) leaves(values, `${at}.*`, out);
  return out;
}

function program(): ts.Program {
  const configFile = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  const files = fs.readdirSync(path.join(ROOT, 'imports')).filter(f => f.endsWith('.ts')).map(f => path.join(ROOT, 'imports', f));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

class TypeWalker {
  private readonly checker: ts.TypeChecker;

  public constructor(private readonly prog: ts.Program) {
    this.checker = prog.getTypeChecker();
  }

  /** The type of `<Class>Props` in imports/<module>.ts (for a kind whose fields are at the top). */
  public propsType(module: string, className: string): ts.Type {
    const source = this.prog.getSourceFile(path.join(ROOT, 'imports', `${module}.ts`));
    if (!source) throw new Error(`imports/${module}.ts is not part of the program`);
    const moduleSymbol = this.checker.getSymbolAtLocation(source)!;
    const props = this.checker.getExportsOfModule(moduleSymbol).find(s => s.name === `${className}Props`);
    if (!props) throw new Error(`imports/${module}.ts exports no ${className}Props`);
    return this.checker.getDeclaredTypeOfSymbol(props);
  }

  /** The `spec` property type of `<Class>Props` in imports/<module>.ts. */
  public specType(module: string, className: string): ts.Type {
    const source = this.prog.getSourceFile(path.join(ROOT, 'imports', `${module}.ts`));
    if (!source) throw new Error(`imports/${module}.ts is not part of the program`);
    const moduleSymbol = this.checker.getSymbolAtLocation(source)!;
    const props = this.checker.getExportsOfModule(moduleSymbol).find(s => s.name === `${className}Props`);
    if (!props) throw new Error(`imports/${module}.ts exports no ${className}Props`);
    const spec = this.checker.getPropertyOfType(this.checker.getDeclaredTypeOfSymbol(props), 'spec');
    if (!spec) throw new Error(`${className}Props has no spec`);
    return this.propertyType(spec);
  }

  /** Walks one schema node beside its TypeScript type and records every leaf that is not covered. */
  public walk(node: SchemaNode, type: ts.Type, at: string, gaps: Gap[]): void {
    const lost = (problem: string, sub: SchemaNode, subAt: string) => {
      for (const leaf of leaves(sub, subAt)) gaps.push({ path: leaf.path, problem });
    };
    if (hasFlag(type.flags, ts.TypeFlags.Any) || hasFlag(type.flags, ts.TypeFlags.Unknown)) {
      lost(`typed ${this.checker.typeToString(type)} at ${at}`, node, at);
      return;
    }
    const props = node.properties ? Object.entries(node.properties) : [];
    const values = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
    if (props.length === 0 && !node.items && !values) {
      const problem = this.leafProblem(node, type);
      if (problem) gaps.push({ path: at, problem });
      return;
    }
    for (const [name, sub] of props) {
      const tsName = propertyName(name);
      const symbol = this.checker.getPropertyOfType(type, tsName);
      if (!symbol) lost(`${this.checker.typeToString(type)} has no property ${tsName}`, sub, `${at}.${name}`);
      else this.walk(sub, this.propertyType(symbol), `${at}.${name}`, gaps);
    }
    if (node.items) {
      const element = this.checker.isArrayType(type) ? this.checker.getTypeArguments(type as ts.TypeReference)[0] : undefined;
      if (!element) lost(`${this.checker.typeToString(type)} is not an array`, node.items, `${at}[]`);
      else this.walk(node.items, element, `${at}[]`, gaps);
    }
    if (values) {
      const value = this.checker.getIndexTypeOfType(type, ts.IndexKind.String);
      if (!value) lost(`${this.checker.typeToString(type)} has no string index signature`, values, `${at}.*`);
      else this.walk(values, value, `${at}.*`, gaps);
    }
  }

  private propertyType(symbol: ts.Symbol): ts.Type {
    return this.checker.getNonNullableType(this.checker.getTypeOfSymbol(symbol));
  }

  /** Why a leaf's TypeScript type cannot carry the schema's values, or undefined when it can. */
  private leafProblem(node: SchemaNode, type: ts.Type): string | undefined {
    const name = this.checker.typeToString(type);
    const is = (flags: ts.TypeFlags) => hasFlag(type.flags, flags) || (type.isUnion() && type.types.every(t => hasFlag(t.flags, flags)));
    if (node['x-kubernetes-int-or-string'] === true) {
      const wanted = isQuantity(node) ? 'Quantity' : 'IntOrString';
      return type.getSymbol()?.name === wanted ? undefined : `int-or-string typed ${name}, expected k8s.${wanted}`;
    }
    switch (node.type) {
      case 'string': return is(ts.TypeFlags.StringLike) ? undefined : `string typed ${name}`;
      case 'integer':
      case 'number': return is(ts.TypeFlags.NumberLike) ? undefined : `${node.type} typed ${name}`;
      case 'boolean': return is(ts.TypeFlags.BooleanLike) ? undefined : `boolean typed ${name}`;
      case 'object': return hasFlag(type.flags, ts.TypeFlags.Object) ? undefined : `free-form object typed ${name}`;
      case 'array': return this.checker.isArrayType(type) ? undefined : `array typed ${name}`;
      default: return `schema type ${JSON.stringify(node.type)} is not handled by this test`;
    }
  }
}

describe('typed L1 props reach every leaf field path of every spec', () => {
  const walker = new TypeWalker(program());
  // The kinds in the version their L1 is generated from (Kueue's v1beta1 schemas, kept for lint, have no L1).
  const schemas = [...kindSchemas().values()].filter(s => l1KindFor(`${s.group}/${s.version}`, s.kind) !== undefined);
  const totals: string[] = [];
  let total = 0;

  test.each(schemas.map(s => [s.kind, s] as const))('%s', (_kind, schema: KindSchema) => {
    const l1 = l1KindFor(`${schema.group}/${schema.version}`, schema.kind);
    expect(l1).toBeDefined();
    const gaps: Gap[] = [];
    let count: number;
    if (schema.schema.properties!.spec) {
      const spec = schema.schema.properties!.spec;
      walker.walk(spec, walker.specType(l1!.module, l1!.className), 'spec', gaps);
      count = leaves(spec, 'spec').length;
    } else {
      // A kind without a spec (WorkloadPriorityClass): its own top-level fields, on the props.
      const own = Object.fromEntries(Object.entries(schema.schema.properties!).filter(([name]) => !['apiVersion', 'kind', 'metadata'].includes(name)));
      const node: SchemaNode = { type: 'object', properties: own };
      walker.walk(node, walker.propsType(l1!.module, l1!.className), schema.kind, gaps);
      count = leaves(node, schema.kind).length;
    }
    total += count;
    totals.push(`${schema.kind} ${count}`);
    expect(gaps.map(g => `${g.path}: ${g.problem}`)).toEqual([]);
  });

  test('every pinned kind is walked, the Trainer v2 and Kueue kinds among them', () => {
    expect(schemas.map(s => s.kind).sort()).toEqual([
      'ClusterQueue', 'ClusterTrainingRuntime', 'Cohort', 'JAXJob', 'LocalQueue', 'MPIJob', 'MXJob', 'PaddleJob', 'PyTorchJob', 'ResourceFlavor', 'TFJob',
      'Topology', 'TrainJob', 'TrainingRuntime', 'WorkloadPriorityClass', 'Workspace', 'WorkspaceKind', 'XGBoostJob',
    ]);
  });

  test('the walk itself finds a missing property, a wrong leaf type and a wrong int-or-string type', () => {
    // A negative control: the same walk over a PyTorchJob spec with made-up fields.
    const replica = (leaf: Record<string, SchemaNode>): SchemaNode => ({
      type: 'object',
      properties: {
        pytorchReplicaSpecs: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { template: { type: 'object', properties: { spec: { type: 'object', properties: { containers: { type: 'array', items: { type: 'object', properties: leaf } } } } } } },
          },
        },
      },
    });
    const quantity = { 'x-kubernetes-int-or-string': true, 'pattern': '^(([KMGTPE]i))?$' };
    const schema = replica({
      imagee: { type: 'string' },
      image: { type: 'integer' },
      ports: { type: 'array', items: { type: 'object', properties: { containerPort: quantity, hostIP: { type: 'string' } } } },
      resources: { type: 'object', properties: { limits: { type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true } } } },
    });
    const gaps: Gap[] = [];
    walker.walk(schema, walker.specType('kubeflow', 'PyTorchJob'), 'spec', gaps);
    const containers = 'spec.pytorchReplicaSpecs.*.template.spec.containers[]';
    expect(gaps.map(g => `${g.path}: ${g.problem}`)).toEqual([
      `${containers}.imagee: Container has no property imagee`,
      `${containers}.image: integer typed string`,
      `${containers}.ports[].containerPort: int-or-string typed number, expected k8s.Quantity`,
      `${containers}.resources.limits.*: int-or-string typed Quantity, expected k8s.IntOrString`,
    ]);
  });

  afterAll(() => {
    if (totals.length === 0) return; // filtered run
    console.log(`leaf field paths reachable through typed props: ${totals.join(', ')}; total ${total}`);
  });
});

/**
 * The compact schemas are what the test above walks, so they must keep every leaf of the pinned
 * CRDs themselves; a field the generator loses on the way would otherwise never be counted.
 */
describe('the compact schemas keep every leaf of the pinned CRDs', () => {
  const files = MODULES.flatMap(m => m.files);

  test.each(files)('%s', file => {
    const crd: any = yaml.load(fs.readFileSync(path.join(CRD_ROOT, file), 'utf8'));
    const version = crd.spec.versions.find((v: any) => v.storage) ?? crd.spec.versions[0];
    const kind: string = crd.spec.names.kind;
    const compact = [...kindSchemas().values()].find(s => s.kind === kind && s.version === version.name);
    expect(compact).toBeDefined();
    // The whole object but status (which no one writes): the spec, or a spec-less kind's own fields.
    const { status: _status, ...written } = version.schema.openAPIV3Schema.properties;
    const wanted = leaves({ type: 'object', properties: written }, '').map(l => l.path)
      .filter(p => !['.apiVersion', '.kind', '.metadata'].includes(p));
    const have = new Set(leaves(compact!.schema, '').map(l => l.path));
    expect(wanted.filter(p => !have.has(p))).toEqual([]);
  });

  test('every required field of the compact schemas is declared', () => {
    const undeclared: string[] = [];
    const visit = (node: SchemaNode, at: string) => {
      for (const r of node.required ?? []) if (!node.properties?.[r]) undeclared.push(`${at}.${r}`);
      for (const [name, sub] of Object.entries(node.properties ?? {})) visit(sub, `${at}.${name}`);
      if (node.items) visit(node.items, `${at}[]`);
      if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${at}.*`);
    };
    for (const s of kindSchemas().values()) visit(s.schema, s.kind);
    expect(undeclared).toEqual([]);
  });
});
