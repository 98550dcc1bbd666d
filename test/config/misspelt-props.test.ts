/**
 * "Did you mean" for every misspelt prop of every struct of the assembly, whatever the value's
 * type: generated from the boundary's table (which jsii's assembly writes), one misspelt prop per
 * struct, each reported under the path by which an entry point reaches the struct.
 */
import { Chart, Testing } from 'cdk8s';
import { DistributedPyTorch, TrainJob, TrainingRuntimeRef } from '../../src';
import { checkStructValue } from '../../src/boundary/check';
import { CLASSES, OPEN_STRUCTS, STRUCTS } from '../../src/boundary/schema.generated';
import { distance, nearest } from '../../src/util/nearest';

/** The element type of a list or map type string, or the type itself. */
const inner = (spec: string) => spec.replace(/^\?/, '').replace(/(\[\]|\{\})+$/, '');

/**
 * Every struct the API takes, with the path an entry point reaches it by: a construct's props at
 * the top (`workers`), a method's struct parameter by its name (`options.`), struct fields below
 * (`worker.`, `data[0].`).
 */
function structPaths(): Map<string, { entry: string; path: string }> {
  const found = new Map<string, { entry: string; path: string }>();
  const queue: Array<{ fqn: string; entry: string; path: string }> = [];
  const visit = (spec: string, entry: string, path: string) => {
    const fqn = inner(spec);
    if (!(fqn in STRUCTS) || found.has(fqn) || OPEN_STRUCTS.includes(fqn)) return;
    found.set(fqn, { entry, path });
    queue.push({ fqn, entry, path });
  };
  for (const [cls, entry] of Object.entries(CLASSES)) {
    if (cls.includes('.')) continue;
    for (const p of entry.init ?? []) {
      const [name, spec] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
      visit(spec, `new ${cls}`, name === 'props' ? '' : name);
    }
    for (const [kind, methods] of [['', entry.methods ?? {}], ['static ', entry.statics ?? {}]] as const) {
      for (const [method, params] of Object.entries(methods)) {
        for (const p of params) visit(p.slice(p.indexOf(':') + 1), `${kind}${cls}.${method}`, p.slice(0, p.indexOf(':')).replace(/^\.\.\./, ''));
      }
    }
  }
  while (queue.length) {
    const { fqn, entry, path } = queue.shift()!;
    for (const [field, spec] of Object.entries(STRUCTS[fqn])) {
      const bare = spec.replace(/^\?/, '');
      const step = bare.endsWith('[]') ? `${field}[0]` : bare.endsWith('{}') ? `${field}.key` : field;
      visit(spec, entry, path ? `${path}.${step}` : step);
    }
  }
  return found;
}

const PATHS = structPaths();
/** Base structs no parameter names (WorkspaceOptionProps, under ImageConfigOptions and PodConfigOptions) are checked on their own. */
const BASES = Object.keys(STRUCTS).filter(fqn => !fqn.includes('.') && !PATHS.has(fqn));
for (const fqn of BASES) PATHS.set(fqn, { entry: fqn, path: '' });
const OWN = [...PATHS.keys()].filter(fqn => !fqn.includes('.')).sort();

/**
 * One misspelling per struct: the longest prop with one letter left out of its middle, chosen so
 * that no other prop of the struct is as close (the guess is then unambiguous).
 */
function misspelling(fqn: string): { prop: string; typo: string } | undefined {
  const fields = Object.keys(STRUCTS[fqn]).sort((a, b) => b.length - a.length || a.localeCompare(b));
  for (const prop of fields) {
    const at = Math.floor(prop.length / 2);
    const typo = prop.slice(0, at) + prop.slice(at + 1);
    if (typo in STRUCTS[fqn]) continue;
    if (fields.every(f => f === prop || distance(typo.toLowerCase(), f.toLowerCase()) > 1)) return { prop, typo };
  }
  return undefined;
}

test('the walk reaches every struct of the assembly from an entry point, but the base structs', () => {
  expect(BASES).toEqual(['WorkspaceOptionProps']);
  expect(OWN).toEqual(Object.keys(STRUCTS).filter(fqn => !fqn.includes('.')).sort());
  expect(OWN).toHaveLength(58);
});

describe.each(OWN)('%s', fqn => {
  const { entry, path } = PATHS.get(fqn)!;

  test('a misspelt prop is refused with the struct path and the prop it meant', () => {
    const m = misspelling(fqn);
    if (m === undefined) {
      // Only a struct whose every prop is one letter from another: none today.
      throw new Error(`no unambiguous misspelling for ${fqn}: ${Object.keys(STRUCTS[fqn]).join(', ')}`);
    }
    const at = path ? `${path}.${m.typo}` : m.typo;
    expect(() => checkStructValue(entry, fqn, { [m.typo]: 1 }, path)).toThrow(
      `${entry}: ${at} is 1; expected no such field in ${fqn}: did you mean "${m.prop}"?`);
  });
});

/** A value of a simple type, for giving one prop another's value. */
const SAMPLE: { [type: string]: unknown } = { 'number': 3, 'string': 'x', 'boolean': true, 'string[]': ['x'], 'string{}': { k: 'v' }, 'RoleOptions': { image: 'x' } };

test('a prop given the value of a close sibling of another type gets "did you mean" the sibling', () => {
  const pairs: string[] = [];
  for (const fqn of OWN) {
    const fields = STRUCTS[fqn];
    for (const [given, spec] of Object.entries(fields)) {
      for (const [meant, meantSpec] of Object.entries(fields)) {
        const value = SAMPLE[meantSpec.replace(/^\?/, '')];
        if (meant === given || value === undefined || distance(given.toLowerCase(), meant.toLowerCase()) > 2) continue;
        // The guess is the sibling nearest to the given name among those that take the value.
        const takers = Object.keys(fields).filter(f => f !== given && SAMPLE[fields[f].replace(/^\?/, '')] !== undefined
          && JSON.stringify(SAMPLE[fields[f].replace(/^\?/, '')]) === JSON.stringify(value));
        if (nearest(given, takers) !== meant) continue;
        let message = '';
        try {
          checkStructValue('probe', fqn, { [given]: value }, '');
        } catch (e: any) {
          message = e.message;
        }
        if (message.startsWith(`probe: ${given} is `)) {
          pairs.push(`${fqn}: ${given} for ${meant}`);
          expect(message).toMatch(new RegExp(`: did you mean "${meant}"\\?$`));
        }
        void spec;
      }
    }
  }
  // A count and the options of the same role, both ways, on every v1 job.
  const jobs = ['DistributedJaxProps', 'DistributedPaddleProps', 'DistributedPyTorchProps', 'DistributedXGBoostProps', 'MpiAllReduceProps', 'ParameterServerTFProps'];
  const roles = (job: string) => job === 'DistributedPaddleProps' || job === 'ParameterServerTFProps' ? ['parameterServer', 'worker'] : ['worker'];
  expect(pairs).toEqual(jobs.flatMap(job => roles(job).flatMap(r => [`${job}: ${r} for ${r}s`, `${job}: ${r}s for ${r}`])));
});

describe('through the constructors', () => {
  const build = (props: object) => () => new DistributedPyTorch(new Chart(Testing.app(), 'test'), 'job', { image: 'train:1', ...props } as any);

  test('worker: 3 (a number for the role options) suggests workers', () => {
    expect(build({ worker: 3 })).toThrow('test/job: worker is 3; expected a RoleOptions (an object of its fields): did you mean "workers"?');
  });

  test('a misspelt top-level prop, a nested one and a CRD name for a prop', () => {
    expect(build({ wrkers: 3 })).toThrow('test/job: wrkers is 3; expected no such field in DistributedPyTorchProps: did you mean "workers"?');
    expect(build({ worker: { imag: 'x' } })).toThrow('test/job: worker.imag is "x"; expected no such field in RoleOptions: did you mean "image"?');
    expect(build({ workers: 2, elastic: { minReplicas: 1, maxWorkers: 2 } })).toThrow('test/job: elastic.minReplicas is 1; expected no such field in ElasticOptions: did you mean "minWorkers"?');
    expect(build({ resources: { gpu: 1 } })).toThrow('test/job: resources.gpu is 1; expected no such field in Resources: did you mean "accelerator"?');
  });

  test('a TrainJob prop given another type of value', () => {
    expect(() => new TrainJob(new Chart(Testing.app(), 'test'), 'job', { runtime: TrainingRuntimeRef.cluster('torch-distributed'), numNode: 2 } as any))
      .toThrow('test/job: numNode is 2; expected no such field in TrainJobProps: did you mean "numNodes"?');
  });
});
