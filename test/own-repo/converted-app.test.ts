import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { ROOT, bash, followGuide, userEnv, workspace } from './guide-app';
import { normalised } from '../../src/cli/convert/convert-typed';
import { withUpstreamDefaults } from '../../src/cli/convert/convert-v1-defaults';

/**
 * `convert --out` writes an app that runs: in the app docs/own-repo.md sets up (guide-app.ts), the
 * hand-written PyTorchJob, TFJob, MPIJob and XGBoostJob (test/cli/fixtures/hand-written) are converted with the
 * package's own command, the command it prints is run, and the objects it writes to dist/ are the
 * input's (after upstream's defaulting, as the round-trip test compares).
 */
const ws = workspace();
afterAll(() => fs.rmSync(ws.work, { recursive: true, force: true }));

test('convert --out writes app.ts and main.ts, prints the command, and the command writes the input\'s jobs', () => {
  const guide = followGuide(ws);
  expect({ status: guide.status, stderr: guide.stderr }).toEqual({ status: 0, stderr: '' });
  fs.cpSync(path.join(ROOT, 'test', 'cli', 'fixtures', 'hand-written'), path.join(ws.app, 'manifests'), { recursive: true });
  const converted = bash('mkdir converted && npx cdk8s-kubeflow convert --out converted/app.ts manifests/', ws.app, userEnv(ws.home));
  expect({ status: converted.status, stdout: converted.stdout }).toEqual({ status: 0, stdout: '' });
  expect(converted.stderr).toBe([
    'cdk8s-kubeflow: converted 4 objects from 4 files',
    '  kubeflow.org/v1 MPIJob: 1 by its L2 construct with JSON patches',
    '  kubeflow.org/v1 PyTorchJob: 1 by its L2 construct with JSON patches',
    '  kubeflow.org/v1 TFJob: 1 by its L2 construct with JSON patches',
    '  kubeflow.org/v1 XGBoostJob: 1 by its L2 construct with JSON patches',
    'cdk8s-kubeflow: wrote converted/app.ts and converted/main.ts; `cd converted && node main.ts` writes the objects to dist/',
    '',
  ].join('\n'));
  const command = /`([^`]+)`/.exec(converted.stderr)![1];
  const ran = bash(command, ws.app, userEnv(ws.home));
  expect({ status: ran.status, stdout: ran.stdout, stderr: ran.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  const dist = path.join(ws.app, 'converted', 'dist');
  const files = ['mpijob', 'pytorchjob', 'tfjob', 'xgboostjob'];
  expect(fs.readdirSync(dist).sort()).toEqual(files.map(f => `${f}.k8s.yaml`));
  for (const file of files) {
    const input = yaml.loadAll(fs.readFileSync(path.join(ws.app, 'manifests', `${file}.yaml`), 'utf8')).map(normalised);
    const output = yaml.loadAll(fs.readFileSync(path.join(dist, `${file}.k8s.yaml`), 'utf8'));
    expect(output.map(withUpstreamDefaults)).toStrictEqual(input.map(withUpstreamDefaults));
  }
}, 600_000);
