import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { YamlOutputType } from 'cdk8s';
import { buildExamples, exampleFiles } from '../../examples/main';
import { StableFileNamesApp } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';

/**
 * The examples are the README's quick start and what `npm run synth` writes to dist/. Each chart's
 * YAML is a snapshot: a change to it is a change to what users' GitOps repositories receive.
 */
describe('examples', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-'));
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));
  // The app `npm run synth` uses: charts that depend on each other (kueue-platform's teams on its
  // platform chart) keep their file names, as in dist/.
  buildExamples(new StableFileNamesApp({ outdir, yamlOutputType: YamlOutputType.FILE_PER_CHART })).synth();
  const files = fs.readdirSync(outdir).filter(f => f.endsWith('.k8s.yaml')).sort();

  test('every example module adds at least one chart', () => {
    expect(exampleFiles().length).toBeGreaterThanOrEqual(4);
    expect(files.length).toBeGreaterThanOrEqual(exampleFiles().length);
  });

  test('every manifest of every example passes the strict schema check', () => {
    const docs = expectDeterministic(app => { buildExamples(app); }, { yamlOutputType: YamlOutputType.FILE_PER_CHART });
    expect(expectValidManifests(docs)).toBeGreaterThanOrEqual(files.length);
  });

  test.each(files)('%s', file => {
    expect(fs.readFileSync(path.join(outdir, file), 'utf8')).toMatchSnapshot();
  });
});
