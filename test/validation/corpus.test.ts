import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, YamlOutputType } from 'cdk8s';
import * as yaml from 'js-yaml';
import { buildExamples } from '../../examples/main';
import { describe as describeFinding } from '../../src/private/validation/finding';
import { documentKind, kubernetesFindings } from '../../src/private/validation/k8s';
import { compileLocation, select } from '../../src/private/validation/k8s/select';

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
  const root = path.join(__dirname, '..', '..', '..', 'shared', 'examples', 'upstream');
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
