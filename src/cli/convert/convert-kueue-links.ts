/**
 * Which Kueue objects of the input `convert` says with their L2 constructs, and how it links them:
 * the constructs take the objects they name as constructs (a ClusterQueue its ResourceFlavors, a
 * flavor its Topology, a LocalQueue its ClusterQueue), so an object is said by its construct only
 * when the objects it names are too, and the generated code holds those in variables declared first.
 *
 * A construct also makes its object depend on the ones it names, and that moves objects: cdk8s
 * writes a chart's objects in dependency order, an object that others depend on right before the
 * first of them (cdk8s's DependencyGraph.topology), and orders dependent charts after the charts
 * they depend on, refusing charts that depend on each other both ways. So a link is made only where
 * the chart still writes its objects in the input's order and the charts stay acyclic; the charts
 * are then written in the input's order, except that a chart comes after the charts it names
 * objects of (the objects of one chart keep their order whatever the order of the charts).
 *
 * A Cohort can also be named by name (`Cohort.fromName`), so a ClusterQueue or Cohort whose cohort
 * is not in the input, or cannot be linked, is still said by its construct, naming it so.
 * The input's v1beta1 objects come here in their v1beta2 form (convert.ts reads them so).
 */
import { quoteString } from './convert-code';
import { KUEUE_KINDS, KUEUE_MAPPERS, KueueKind, KueueReference } from './convert-kueue';
import type { L2Mapping } from './convert-l2-mapping';
import type { ChartInput } from './convert-reader';
import { normalised } from './convert-typed';
import { Finding, describe } from '../../rules/finding';
import { KUEUE_API_VERSION } from '../../rules/kueue/api';

/** What convert does with the input's Kueue objects. */
export interface KueuePlan {
  /** The L2 code, or why there is none, of each Kueue object of the typed kinds, by its input document. */
  readonly mappings: ReadonlyMap<any, L2Mapping>;
  /** The charts in the order the module creates them. */
  readonly charts: readonly ChartInput[];
}

interface KueueObject {
  readonly chart: number;
  /** The object's place in its chart. */
  readonly index: number;
  readonly doc: any;
  readonly normalised: any;
  readonly id: string;
  readonly kind: KueueKind;
  readonly name: unknown;
}

const VARIABLE_PREFIX: { readonly [kind in KueueKind]: string } = {
  Topology: 'topology', WorkloadPriorityClass: 'priorityClass', ResourceFlavor: 'flavor', Cohort: 'cohort', ClusterQueue: 'clusterQueue', LocalQueue: 'localQueue',
};

/**
 * The plan for the Kueue objects of `charts`; `findings` are lint's per input document (a construct
 * would refuse such an object at synth), `variables` the names the module uses already. The steps,
 * in order: accept each object whose construct can say it and take the objects it names (kind by
 * kind, the named kinds first), give a variable to each object another names, write the code.
 */
export function planKueue(charts: readonly ChartInput[], findings: ReadonlyMap<any, readonly Finding[]>, variables: ReadonlySet<string>): KueuePlan {
  const links = new KueueLinks(charts);
  for (const kind of KUEUE_KINDS) {
    for (const o of links.all.filter(x => x.kind === kind)) links.accept(o, findings.get(o.doc) ?? []);
  }
  return { mappings: links.mappings(links.variables(variables)), charts: chartOrder(charts, links.chartDependencies) };
}

/** The links the Kueue objects' constructs make, accepted one object at a time. */
class KueueLinks {
  /** The Kueue objects of the typed kinds, in input order. */
  readonly all: readonly KueueObject[];
  /** Why an object's construct cannot say it. */
  readonly cannot = new Map<KueueObject, string>();
  /** The objects each accepted object names, in the order its construct adds the dependencies. */
  readonly named = new Map<KueueObject, KueueObject[]>();
  /** The charts each chart names objects of. */
  readonly chartDependencies: ReadonlyArray<Set<number>>;

  constructor(private readonly charts: readonly ChartInput[]) {
    this.all = charts.flatMap((c, chart) => c.objects.map((o, index) => ({ chart, index, doc: o.doc, id: o.id })))
      .filter(o => o.doc.apiVersion === KUEUE_API_VERSION && Object.keys(KUEUE_MAPPERS).includes(o.doc.kind))
      .map(o => ({ ...o, normalised: normalised(o.doc), kind: o.doc.kind as KueueKind, name: o.doc.metadata?.name }));
    this.chartDependencies = charts.map(() => new Set<number>());
  }

  /** Accepts `o` with the links its construct makes, or records why its construct cannot say it. */
  accept(o: KueueObject, found: readonly Finding[]): void {
    const kind = o.kind;
    const mapper = KUEUE_MAPPERS[kind];
    if (found.length > 0) {
      this.cannot.set(o, `the ${kind} construct would refuse it at synth (${describe(found[0])})`);
      return;
    }
    const unsaid = mapper.unsaid(o.normalised);
    if (unsaid.length > 0) {
      this.cannot.set(o, `the ${kind} construct does not say ${unsaid.join(', ')}`);
      return;
    }
    const targets = mapper.references(o.normalised).map(r => ({ r, t: this.target(o, r) }));
    const why = targets.find(x => typeof x.t === 'string' && !x.r.byName);
    if (why !== undefined) {
      this.cannot.set(o, why.t as string);
      return;
    }
    // A reference by name that cannot be linked is written by name.
    const linked = targets.filter(x => typeof x.t !== 'string');
    this.named.set(o, [...new Set(linked.map(x => x.t as KueueObject))]);
    let moved = this.reordered(o.chart);
    if (moved !== undefined && linked.some(x => x.r.byName)) {
      // The links by construct to cohorts reorder the chart: name those cohorts by name instead.
      this.named.set(o, [...new Set(linked.filter(x => !x.r.byName).map(x => x.t as KueueObject))]);
      moved = this.reordered(o.chart);
    }
    if (moved !== undefined) {
      this.named.delete(o);
      this.cannot.set(o, `the ${kind} construct would have cdk8s write ${moved}, against the input's order (cdk8s writes an object right before the first one that depends on it)`);
      return;
    }
    for (const t of this.named.get(o)!) if (t.chart !== o.chart) this.chartDependencies[o.chart].add(t.chart);
  }

  /** Whether chart `from` depends on chart `to`, directly or not (or is it). */
  private reach(from: number, to: number): boolean {
    return from === to || [...this.chartDependencies[from]].some(n => this.reach(n, to));
  }

  /** The object `o` names by `r`, or why its construct cannot take it. */
  private target(o: KueueObject, r: KueueReference): KueueObject | string {
    const takes = `the ${o.kind} construct takes the ${r.kind} ${r.name} it names as a construct`;
    const candidates = this.all.filter(x => x.kind === r.kind && x.name === r.name);
    if (candidates.length === 0) return `${takes}, and the input does not define it`;
    if (candidates.length > 1) return `${takes}, and the input defines it more than once`;
    const t = candidates[0];
    if (!this.named.has(t)) return `${takes}, and convert leaves that object to its L1 too`;
    if (t.chart === o.chart && t.index > o.index) return `${takes}, and its file defines it after this one (cdk8s would write it first)`;
    if (t.chart !== o.chart && this.reach(t.chart, o.chart)) {
      return `${takes}, and its file already depends on this one (cdk8s refuses charts that depend on each other both ways)`;
    }
    return t;
  }

  /** How cdk8s would reorder the chart's objects with the accepted links, or undefined when it keeps them in order. */
  private reordered(chart: number): string | undefined {
    const size = this.charts[chart].objects.length;
    const inChart = new Map([...this.named].filter(([o]) => o.chart === chart)
      .map(([o, ts]) => [o.index, ts.filter(t => t.chart === chart).map(t => t.index)]));
    const order = cdk8sOrder(size, inChart);
    const at = order.findIndex((n, i) => n !== i);
    if (at < 0) return undefined;
    const object = (i: number) => {
      const doc = this.charts[chart].objects[i].doc;
      return `${doc.kind} ${String(doc.metadata?.name)}`;
    };
    return `${object(order[at])} before ${object(at)}`;
  }

  /** A variable for each object that others name, in input order, beside the names in `taken` already. */
  variables(taken: ReadonlySet<string>): Map<KueueObject, string> {
    const names = new Set(taken);
    const variableOf = new Map<KueueObject, string>();
    const referenced = new Set([...this.named.values()].flat());
    for (const o of this.all.filter(x => referenced.has(x))) {
      const words = String(o.name).split(/[^A-Za-z0-9]+/).filter(w => w !== '');
      const base = `${VARIABLE_PREFIX[o.kind]}${words.map(w => w[0].toUpperCase() + w.slice(1).toLowerCase()).join('')}`;
      let name = base;
      for (let n = 2; names.has(name); n++) name = `${base}${n}`;
      names.add(name);
      variableOf.set(o, name);
    }
    return variableOf;
  }

  /** Each object's L2 code (declared in its variable when others name it), or why there is none. */
  mappings(variableOf: ReadonlyMap<KueueObject, string>): Map<any, L2Mapping> {
    const mappings = new Map<any, L2Mapping>();
    for (const o of this.all) {
      const targets = this.named.get(o);
      if (targets === undefined) {
        mappings.set(o.doc, { cannot: this.cannot.get(o)! });
        continue;
      }
      const variable = (r: KueueReference) => {
        const t = targets.find(x => x.kind === r.kind && x.name === r.name);
        return t === undefined ? `Cohort.fromName(${quoteString(r.name)})` : variableOf.get(t)!;
      };
      const { code, imports, patches = [] } = KUEUE_MAPPERS[o.kind].code(o.normalised, this.charts[o.chart].variable, o.id, variable);
      const declared = variableOf.get(o);
      const patchCall = (owner: string) => [`${owner}.apiObject.addJsonPatch(`, ...patches.map(p => `  ${p.op},`), ');'].join('\n');
      const statement = patches.length === 0 ? (declared === undefined ? `${code};` : `const ${declared} = ${code};`)
        : declared === undefined ? patchCall(code) : `const ${declared} = ${code};\n${patchCall(declared)}`;
      mappings.set(o.doc, { code: statement, imports, ...patches.length === 0 ? {} : { patches: patches.map(p => `${p.why}.`) } });
    }
    return mappings;
  }
}

/**
 * The order cdk8s writes a chart's objects in, as cdk8s's DependencyGraph.topology() computes it
 * (the objects given by their place in the chart, `dependencies` as each object added them): every
 * object that no other depends on, in creation order, each after what it depends on, depth first.
 */
export function cdk8sOrder(size: number, dependencies: ReadonlyMap<number, readonly number[]>): number[] {
  const dependedOn = new Set([...dependencies.values()].flat());
  const out: number[] = [];
  const visit = (n: number) => {
    for (const d of dependencies.get(n) ?? []) visit(d);
    if (!out.includes(n)) out.push(n);
  };
  for (let n = 0; n < size; n++) if (!dependedOn.has(n)) visit(n);
  return out;
}

/** The charts in input order, each moved after the charts it depends on (they depend on no later one in a cycle). */
function chartOrder(charts: readonly ChartInput[], dependencies: ReadonlyArray<ReadonlySet<number>>): ChartInput[] {
  const done = new Set<number>();
  const out: ChartInput[] = [];
  while (out.length < charts.length) {
    const next = charts.findIndex((_c, i) => !done.has(i) && [...dependencies[i]].every(d => done.has(d)));
    done.add(next);
    out.push(charts[next]);
  }
  return out;
}
