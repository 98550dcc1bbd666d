import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../run-cli';

/** `lint --target` and `plan --target`: the versions the cluster runs narrow the support window. */
const RUNTIME = `apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: mpi-custom
spec:
  mlPolicy:
    numNodes: 2
    mpi:
      numProcPerNode: 1
      sshAuthMountPath: /home/mpiuser/.ssh
  template:
    spec:
      replicatedJobs:
        - name: launcher
          template:
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: example.com/launcher:1
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: example.com/node:1
        - name: a-sidecar-job-of-21ch
          template:
            spec:
              template:
                spec:
                  containers:
                    - name: sidecar
                      image: example.com/sidecar:1
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: job
  namespace: ml
spec:
  runtimeRef:
    name: mpi-custom
  trainer:
    image: example.com/node:2
`;

const LENGTH = '<stdin>:33:11: ClusterTrainingRuntime mpi-custom: spec.template.spec.replicatedJobs[2].name is "a-sidecar-job-of-21ch"; expected at most 20 characters: '
  + 'Trainer v2.4.0 and later refuse a runtime with a longer replicated-job name (the JobSet\'s pod names grow with it); shorten it, or set a target of Trainer before v2.4.0 (trainer=v2.3) '
  + '[trainer/replicated-job-name-length]';
const LAUNCHER = '<stdin>:51:5: TrainJob ml/job: spec.trainer.image is "example.com/node:2"; expected the image of the launcher of the MPI runtime "mpi-custom" ("example.com/launcher:1") '
  + 'while the target spans Trainer v2.3 and v2.4: Trainer before v2.4.0 runs the launcher from the runtime\'s image "example.com/launcher:1", v2.4.0 and later from the TrainJob\'s '
  + '"example.com/node:2"; use the same image, or set the target to one of them (trainer=v2.3 or trainer=v2.4) [trainer/mpi-launcher-image]';

const findings = (stdout: string) => stdout.split('\n').filter(l => l.startsWith('<stdin>:'));

describe('lint --target', () => {
  test('without a target: every version of the window, so both Trainer v2.4.0 rules', () => {
    const result = runCli(['lint', '-'], RUNTIME);
    expect(findings(result.stdout)).toEqual([LENGTH, LAUNCHER]);
    expect(result.status).toBe(1);
  });

  test('Trainer v2.3: neither; v2.4: the name length only (the launcher runs the job\'s image on v2.4 alone)', () => {
    const v23 = runCli(['lint', '--target', 'kueue=v0.19,trainer=v2.3', '-'], RUNTIME);
    expect([v23.status, findings(v23.stdout), v23.stdout.trim().split('\n').pop()]).toEqual([0, [], '2 documents checked; no findings']);
    const v24 = runCli(['lint', '--target=trainer=v2.4.0', '-'], RUNTIME);
    expect([v24.status, findings(v24.stdout)]).toEqual([1, [LENGTH]]);
    // The JSON form, as the context key takes it; the last --target counts.
    expect(findings(runCli(['lint', '--target', 'trainer=v2.4', '--target', '{"trainer":"v2.2"}', '-'], RUNTIME).stdout)).toEqual([]);
  });

  test('a wrong target is a usage error naming the key, the value and the window', () => {
    const cases: Array<[string, string]> = [
      ['kueue=v0.21', '--target: kueue is "v0.21"; expected a Kueue version from v0.15.2 to v0.20 (the support window, docs/versions.md)'],
      ['trainingOperator=v1.8', '--target: trainingOperator is "v1.8"; expected a Kubeflow Training Operator version from v1.9.0 to v1.9.4 (the support window, docs/versions.md)'],
      ['training-operator=v1.9', '--target: training-operator is "v1.9"; expected a key of kubernetes, trainingOperator, jobset, trainer, notebooks, kueue'],
      ['trainer=', '--target is "trainer="; expected KEY=VERSION pairs separated by commas, such as kueue=v0.19,trainer=v2.3 (keys: kubernetes, trainingOperator, jobset, trainer, notebooks, kueue); "trainer=" is not one'],
    ];
    for (const [value, message] of cases) {
      const result = runCli(['lint', '--target', value, '-'], RUNTIME);
      expect([result.status, result.stderr.split('\n')[0]]).toEqual([2, `cdk8s-kubeflow: ${message}`]);
    }
  });
});

describe('plan --target', () => {
  test('checked as lint checks it, and named on standard error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-target-'));
    const file = path.join(dir, 'jobs.yaml');
    fs.writeFileSync(file, RUNTIME);
    const ok = runCli(['plan', '--target', 'kueue=v0.19', '--format', 'json', file]);
    expect([ok.status, ok.stderr]).toEqual([0, 'cdk8s-kubeflow: plan for the target kueue=v0.19\n']);
    expect(JSON.parse(ok.stdout)).toEqual(JSON.parse(runCli(['plan', '--format', 'json', file]).stdout));
    const wrong = runCli(['plan', '--target', 'kueue=v1', file]);
    expect([wrong.status, wrong.stderr.split('\n')[0]]).toEqual([2, 'cdk8s-kubeflow: --target: kueue is "v1"; expected a Kueue version from v0.15.2 to v0.20 (the support window, docs/versions.md)']);
  });
});
