import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, YamlOutputType } from 'cdk8s';
import * as yaml from 'js-yaml';
import { buildExamples } from '../../../examples/main';
import { UPSTREAM_EXAMPLES, UPSTREAM_EXAMPLES_V2 } from '../../../scripts/upstream/pins';
import { describe as describeFinding } from '../../../src/rules/finding';
import { documentKind, kubernetesFindings } from '../../../src/rules/kubernetes';
import { compileLocation, select } from '../../../src/rules/kubernetes/select';
import { DNS_1035_LABEL } from '../../harness/messages';

/**
 * What the library writes today and what upstream ships are valid Kubernetes objects: the rules
 * find nothing in them (a finding here is a false positive, or a bug in an example).
 */
function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : []);
}

function findingsOf(file: string): string[] {
  return yaml.loadAll(fs.readFileSync(file, 'utf8'))
    .filter(d => d !== null && d !== undefined)
    .flatMap(d => kubernetesFindings(d).map(f => `${(d as any).kind}/${(d as any).metadata?.name} ${f.rule} ${describeFinding(f)}`));
}

describe('every example manifest', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-rules-examples-'));
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));
  buildExamples(new App({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
  const files = fs.readdirSync(outdir).filter(f => f.endsWith('.k8s.yaml')).sort();

  test('there are example charts to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  test.each(files)('%s has no findings', file => {
    expect(findingsOf(path.join(outdir, file))).toEqual([]);
  });
});

describe('every upstream example', () => {
  const root = UPSTREAM_EXAMPLES;
  const files = yamlFiles(root).map(f => path.relative(root, f)).sort();

  test('the upstream examples are there', () => {
    expect(files.length).toBeGreaterThanOrEqual(28);
  });

  test.each(files)('%s has no findings', file => {
    expect(findingsOf(path.join(root, file))).toEqual([]);
  });

  test('the kind table finds the pod templates of every kubeflow.org/v1 job among them', () => {
    const jobs = files.flatMap(file => yaml.loadAll(fs.readFileSync(path.join(root, file), 'utf8')))
      .filter((d: any) => d?.apiVersion === 'kubeflow.org/v1') as any[];
    expect(jobs.length).toBeGreaterThanOrEqual(20);
    const withoutTemplates = jobs.filter(job => {
      let containers = 0;
      for (const pattern of documentKind(job)?.podTemplates ?? []) {
        select(job, compileLocation(pattern), (template: any) => { containers += template?.spec?.containers?.length ?? 0; });
      }
      return containers === 0;
    });
    expect(withoutTemplates.map(j => `${j.kind}/${j.metadata.name}`)).toEqual([]);
  });
});

describe('every Trainer v2 upstream example (v2.3.0 runtimes and jobs)', () => {
  const root = UPSTREAM_EXAMPLES_V2;
  const files = yamlFiles(root).map(f => path.relative(root, f)).sort();

  test('the upstream examples are there', () => {
    expect(files.length).toBe(18);
  });

  test.each(files)('%s has no findings', file => {
    expect(findingsOf(path.join(root, file))).toEqual([]);
  });

  test('the kind table finds a pod template in every replicated job of every runtime', () => {
    const runtimes = files.flatMap(file => yaml.loadAll(fs.readFileSync(path.join(root, file), 'utf8')))
      .filter((d: any) => /TrainingRuntime$/.test(d?.kind)) as any[];
    expect(runtimes.length).toBe(12);
    const counts = runtimes.map(runtime => {
      let templates = 0;
      for (const pattern of documentKind(runtime)?.podTemplates ?? []) {
        select(runtime, compileLocation(pattern), (template: any) => { templates += template?.spec?.containers ? 1 : 0; });
      }
      return templates === runtime.spec.template.spec.replicatedJobs.length ? 'all' : `${runtime.metadata.name}: ${templates}`;
    });
    expect(counts.filter(c => c !== 'all')).toEqual([]);
  });

  test('a TrainJob is known, with its name format (an RFC 1035 label, the CRD\'s CEL rule) and no pod template', () => {
    const kind = documentKind({ apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob' });
    expect(kind?.podTemplates).toEqual([]);
    expect(kubernetesFindings({ apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob', metadata: { name: 'Bad_Name', namespace: 'ml' }, spec: { trainer: { numNodes: 2 ** 31 } } })
      .map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
      `kubernetes/object-name metadata.name is "Bad_Name"; ${DNS_1035_LABEL}`,
      'kubernetes/int32 spec.trainer.numNodes is 2147483648; expected a whole number from -2147483648 to 2147483647 (int32)',
    ]);
  });

  test('a container may mount a volume of the JobSet\'s volume claim policies, and no other undeclared one', () => {
    const runtime = (claim: string) => ({
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'ClusterTrainingRuntime',
      metadata: { name: 'r' },
      spec: {
        template: {
          spec: {
            volumeClaimPolicies: [{ templates: [{ metadata: { name: claim }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } }] }],
            replicatedJobs: [{ name: 'node', template: { spec: { template: { spec: { containers: [{ name: 'node', image: 'i', volumeMounts: [{ name: 'initializer', mountPath: '/workspace' }] }] } } } } }],
          },
        },
      },
    });
    expect(kubernetesFindings(runtime('initializer'))).toEqual([]);
    expect(kubernetesFindings(runtime('cache')).map(f => `${f.rule} ${describeFinding(f)}`)).toEqual([
      'kubernetes/volume-mount-name spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[node].volumeMounts[0].name is "initializer"; expected the name of a volume of the pod: "cache"',
      // The JobSet webhook (validateReplicatedJobsVolumeClaims) refuses a claim template no container mounts.
      'jobset/volume-claim-template spec.template.spec.volumeClaimPolicies[0].templates[0].metadata.name is "cache"; expected a container of the runtime to mount it (volumeMounts[].name); the JobSet webhook refuses it, so every TrainJob of this runtime is admitted and never starts',
    ]);
  });
});
