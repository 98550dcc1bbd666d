/**
 * Building blocks for property-based tests: random but valid job options (resources, run policy,
 * scheduling, environment, volumes), and the checks every generated manifest must pass.
 */
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { REPORT } from './messages';
import { validateManifest } from './schema-validator';
import {
  Accelerator, CleanPodPolicy, GangScheduler, GangScheduling, ManagedBy, PodSecurity, Resources, RestartPolicy, RunPolicy,
} from '../../src';

/**
 * How many random configurations each property runs: `PROPERTY_RUNS` when set (CI sets 1,000),
 * else 100, so a local run stays quick.
 */
export const RUNS = propertyRuns(process.env.PROPERTY_RUNS);

function propertyRuns(value: string | undefined): number {
  if (value === undefined || value === '') return 100;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`PROPERTY_RUNS is "${value}"; expected a whole number of 1 or more`);
  return runs;
}

/** A DNS-1035 label of 1 to 20 characters. */
export const dnsLabel = fc.stringMatching(/^[a-z]([-a-z0-9]{0,18}[a-z0-9])?$/);

export const accelerator: fc.Arbitrary<Accelerator> = fc.tuple(
  fc.constantFrom('nvidia', 'amd', 'intel', 'habana.ai/gaudi'), fc.integer({ min: 1, max: 8 }),
).map(([vendor, n]) => vendor === 'nvidia' ? Accelerator.nvidia(n)
  : vendor === 'amd' ? Accelerator.amd(n)
    : vendor === 'intel' ? Accelerator.intel(n)
      : Accelerator.custom(vendor, n));

export const resources: fc.Arbitrary<Resources> = fc.record({
  cpu: fc.option(fc.oneof(
    fc.integer({ min: 1, max: 96 }).map(n => kplus.Cpu.units(n)),
    fc.integer({ min: 100, max: 4000 }).map(n => kplus.Cpu.millis(n))), { nil: undefined }),
  memory: fc.option(fc.integer({ min: 1, max: 2048 }).map(n => Size.gibibytes(n)), { nil: undefined }),
  ephemeralStorage: fc.option(fc.integer({ min: 1, max: 500 }).map(n => Size.gibibytes(n)), { nil: undefined }),
  accelerator: fc.option(accelerator, { nil: undefined }),
}, { requiredKeys: [] });

export const runPolicy: fc.Arbitrary<RunPolicy> = fc.record({
  cleanPodPolicy: fc.option(fc.constantFrom(CleanPodPolicy.NONE, CleanPodPolicy.RUNNING, CleanPodPolicy.ALL), { nil: undefined }),
  ttlAfterFinished: fc.option(fc.integer({ min: 0, max: 86400 * 7 }).map(s => Duration.seconds(s)), { nil: undefined }),
  activeDeadline: fc.option(fc.integer({ min: 1, max: 86400 * 30 }).map(s => Duration.seconds(s)), { nil: undefined }),
  backoffLimit: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
  suspend: fc.option(fc.boolean(), { nil: undefined }),
  managedBy: fc.option(fc.constantFrom(ManagedBy.TRAINING_OPERATOR, ManagedBy.MULTI_KUEUE), { nil: undefined }),
}, { requiredKeys: [] });

/** Gang scheduling without minAvailable (the construct derives it, so it is always reachable). */
export const gangScheduling: fc.Arbitrary<GangScheduling> = fc.record({
  scheduler: fc.constantFrom(GangScheduler.VOLCANO, GangScheduler.SCHEDULER_PLUGINS),
  queue: fc.option(dnsLabel, { nil: undefined }),
  priorityClass: fc.option(dnsLabel, { nil: undefined }),
  minResources: fc.option(fc.record({ cpu: fc.integer({ min: 1, max: 512 }).map(String) }), { nil: undefined }),
  scheduleTimeout: fc.option(fc.integer({ min: 1, max: 3600 }).map(s => Duration.seconds(s)), { nil: undefined }),
}, { requiredKeys: ['scheduler'] });

export const security = fc.option(fc.constantFrom(PodSecurity.DEFAULT, PodSecurity.RESTRICTED), { nil: undefined });
export const restartPolicy = fc.option(
  fc.constantFrom(RestartPolicy.ALWAYS, RestartPolicy.ON_FAILURE, RestartPolicy.NEVER, RestartPolicy.EXIT_CODE), { nil: undefined });

/** Environment variable names that no operator injects. */
export const envName = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/)
  .filter(n => !/^(MASTER_|WORLD_SIZE$|RANK$|PET_|TF_CONFIG$|WORKER_|PADDLE_|COORDINATOR_|NUM_PROCESSES$|PROCESS_ID$|OMPI_|I_MPI_|NVIDIA_VISIBLE)/.test(n));

export const env = fc.dictionary(envName, fc.string({ maxLength: 20 }), { maxKeys: 4 })
  .map(d => Object.fromEntries(Object.entries(d).map(([k, v]) => [k, kplus.EnvValue.fromValue(v)])));

/** Distinct mount paths for a few dataset or checkpoint claims. */
export const claimMounts = fc.uniqueArray(fc.tuple(dnsLabel, fc.boolean()), { maxLength: 3, selector: ([name]) => name })
  .map(claims => claims.map(([claim, readOnly]) => ({ claim, path: `/mnt/${claim}`, readOnly })));

/**
 * Builds the program in two fresh apps and returns the manifests of the first; throws when the
 * second differs (the property-test form of the determinism check: rendering without writing
 * files keeps a thousand runs fast).
 */
export function renderTwice(build: (chart: Chart) => void): any[] {
  const render = () => {
    const chart = new Chart(new App({ outdir: Testing.app().outdir }), 'test');
    build(chart);
    for (const c of chart.node.findAll()) {
      const errors = c.node.validate();
      if (errors.length) throw new Error(`${REPORT}  ${errors.map(e => `[${c.node.path}] ${e}`).join('\n  ')}`);
    }
    return Testing.synth(chart);
  };
  const first = render();
  const second = render();
  if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error('synthesis is not deterministic');
  return first;
}

/** Schema errors of every manifest (kinds with a pinned schema only). */
export function schemaErrors(docs: any[]): string[] {
  return docs.filter(d => String(d.apiVersion).startsWith('kubeflow.org/')).flatMap(d => validateManifest(d));
}

/** Every container of every pod template in a manifest. */
export function allContainers(doc: any): any[] {
  const out: any[] = [];
  const visit = (node: any) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node.containers)) out.push(...node.containers, ...(node.initContainers ?? []));
    Object.values(node).forEach(visit);
  };
  visit(doc.spec);
  return out;
}

/** Extended resources (anything with a `/`) must have equal requests and limits. */
export function acceleratorMismatches(doc: any): string[] {
  return allContainers(doc).flatMap(c => Object.entries(c.resources?.limits ?? {})
    .filter(([name, value]) => name.includes('/') && String(c.resources?.requests?.[name]) !== String(value))
    .map(([name]) => `${c.name}: ${name}`));
}

/** An error a construct raised on purpose: its own message shape, never a TypeError. */
export function isConstructError(e: unknown): boolean {
  return e instanceof Error && e.constructor === Error
    && (/^test\/[^:]*: [\w.[\]-]+( \([\w.[\]-]+\))? is .+; .+/.test(e.message) || /^Validation failed with the following errors:\n {2}\[test\/[^\]]*\] /.test(e.message));
}
