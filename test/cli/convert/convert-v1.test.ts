/**
 * `convert` on v1 jobs: the differences it accepts (upstream's defaulting, each with the values the
 * Training Operator v1.9.4 and Kubernetes 1.34 write), the L2 construct it writes for a job and the
 * patches beside it, and the L1 it falls back to, with the comment that says why. Every module is
 * synthesized and compared with its input; the round-trip test does the same for the corpora.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lintMessages, scratchFolder, synthesizeModule, typeErrors } from './convert-harness';
import { readDocuments } from '../../../src/cli/base/input';
import { differences } from '../../../src/cli/convert/convert-typed';
import { withUpstreamDefaults } from '../../../src/cli/convert/convert-v1-defaults';
import { EXIT } from '../../../src/cli/main';
import { expectValidManifests } from '../../harness';
import { runCli } from '../run-cli';

const scratch = scratchFolder('converted-v1');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Every module this file converts, for the type and lint check at its end. */
const modules = new Map<string, string>();

/** Converts the YAML; the module, the figures line of the kind, the objects synthesized and the input's. */
function convertYaml(name: string, yaml: string) {
  const result = runCli(['convert', '-'], yaml);
  expect(result.status).toBe(EXIT.OK);
  modules.set(`${name}.ts`, result.stdout);
  const input = readDocuments(['-'], () => yaml).map(d => d.doc);
  return { code: result.stdout, tiers: result.stderr.split('\n').slice(1, -1).map(l => l.trim()), synthesized: synthesizeModule(result.stdout), input };
}

/** The comments of a module's body (wrapped lines joined), but the first, which names the file. */
function commentsOf(code: string): string[] {
  const blocks: string[] = [];
  let previous = false;
  for (const line of code.split('\n').map(l => l.trim())) {
    const comment = line.startsWith('// ');
    if (comment && previous) blocks[blocks.length - 1] += ` ${line.slice(3)}`;
    else if (comment) blocks.push(line);
    previous = comment;
  }
  return blocks.slice(1);
}
const pytorch = (spec: string[]) => ['apiVersion: kubeflow.org/v1', 'kind: PyTorchJob', 'metadata: {name: mnist, namespace: ml}', 'spec:', ...spec].join('\n');
const role = (type: string, pod: string[], extra: string[] = []) => [`    ${type}:`, '      replicas: 1', ...extra, '      template:', '        spec:', ...pod.map(l => `          ${l}`)];

describe('the differences accepted: what upstream\'s defaulting writes when the input leaves it out', () => {
  test('a PyTorchJob gets replicas 1, restartPolicy OnFailure, the port pytorchjob-port 23456, nprocPerNode auto and runPolicy.cleanPodPolicy None (SetDefaults_PyTorchJob)', () => {
    const job = { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', metadata: { name: 'a' }, spec: { pytorchReplicaSpecs: { Worker: { template: { spec: { containers: [{ name: 'pytorch', image: 'i' }] } } } } } };
    const before = JSON.stringify(job);
    expect(withUpstreamDefaults(job)).toEqual({
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'a' },
      spec: {
        runPolicy: { cleanPodPolicy: 'None' },
        nprocPerNode: 'auto',
        pytorchReplicaSpecs: {
          Worker: {
            replicas: 1,
            restartPolicy: 'OnFailure',
            template: { spec: { containers: [{ name: 'pytorch', image: 'i', ports: [{ containerPort: 23456, name: 'pytorchjob-port' }] }] } },
          },
        },
      },
    });
    expect(JSON.stringify(job)).toBe(before);
  });

  test.each([
    ['TFJob', 'tfReplicaSpecs', 'tensorflow', 'Never', { containerPort: 2222, name: 'tfjob-port' }],
    ['XGBoostJob', 'xgbReplicaSpecs', 'xgboost', 'Never', { containerPort: 9999, name: 'xgboostjob-port' }],
    ['PaddleJob', 'paddleReplicaSpecs', 'paddle', 'OnFailure', { containerPort: 36543, name: 'master' }],
    ['JAXJob', 'jaxReplicaSpecs', 'jax', 'Never', { containerPort: 6666, name: 'jaxjob-port' }],
  ])('a %s: its restart policy and port (<Kind>DefaultRestartPolicy, <Kind>DefaultPort)', (kind, key, container, restartPolicy, port) => {
    const job = withUpstreamDefaults({ apiVersion: 'kubeflow.org/v1', kind, metadata: { name: 'a' }, spec: { [key]: { Worker: { template: { spec: { containers: [{ name: container, image: 'i' }] } } } } } });
    expect(job.spec[key].Worker).toEqual({ replicas: 1, restartPolicy, template: { spec: { containers: [{ name: container, image: 'i', ports: [port] }] } } });
    expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'None' });
  });

  test('an MPIJob: no port, a Worker of 0 replicas, the launcher\'s service account <job>-launcher (newLauncher); the deprecated spec.cleanPodPolicy stands for both', () => {
    const job = withUpstreamDefaults({
      apiVersion: 'kubeflow.org/v1',
      kind: 'MPIJob',
      metadata: { name: 'hvd' },
      spec: { mpiReplicaSpecs: { Launcher: { template: { spec: { containers: [{ name: 'mpi', image: 'i' }] } } }, Worker: { template: { spec: { containers: [{ name: 'mpi', image: 'i' }] } } } } },
    });
    expect(job.spec).toEqual({
      runPolicy: { cleanPodPolicy: 'None' },
      mpiReplicaSpecs: {
        Launcher: { replicas: 1, restartPolicy: 'Never', template: { spec: { serviceAccountName: 'hvd-launcher', containers: [{ name: 'mpi', image: 'i' }] } } },
        Worker: { replicas: 0, restartPolicy: 'Never', template: { spec: { containers: [{ name: 'mpi', image: 'i' }] } } },
      },
    });
    const deprecated = withUpstreamDefaults({ apiVersion: 'kubeflow.org/v1', kind: 'MPIJob', metadata: { name: 'hvd' }, spec: { cleanPodPolicy: 'Running', mpiReplicaSpecs: {} } });
    expect(deprecated.spec).toEqual({ cleanPodPolicy: 'Running', mpiReplicaSpecs: {} });
  });

  test('what is written stays: a port of the default name keeps its number, another port gets the default beside it, the container is found by name', () => {
    const job = withUpstreamDefaults({
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'a' },
      spec: {
        runPolicy: { cleanPodPolicy: 'All' },
        pytorchReplicaSpecs: {
          Master: { replicas: 1, restartPolicy: 'ExitCode', template: { spec: { containers: [{ name: 'pytorch', image: 'i', ports: [{ containerPort: 30000, name: 'pytorchjob-port' }] }] } } },
          Worker: { replicas: 3, template: { spec: { containers: [{ name: 'proxy', image: 'p' }, { name: 'pytorch', image: 'i', ports: [{ containerPort: 8080, name: 'metrics' }] }] } } },
        },
      },
    });
    expect(job.spec.runPolicy).toEqual({ cleanPodPolicy: 'All' });
    expect(job.spec.pytorchReplicaSpecs.Master).toEqual({ replicas: 1, restartPolicy: 'ExitCode', template: { spec: { containers: [{ name: 'pytorch', image: 'i', ports: [{ containerPort: 30000, name: 'pytorchjob-port' }] }] } } });
    expect(job.spec.pytorchReplicaSpecs.Worker.template.spec.containers).toEqual([
      { name: 'proxy', image: 'p' },
      { name: 'pytorch', image: 'i', ports: [{ containerPort: 8080, name: 'metrics' }, { containerPort: 23456, name: 'pytorchjob-port' }] },
    ]);
  });

  test('the pods\' defaulting (SetDefaults_Pod): a request for what has a limit only, quantities as strings; an empty template metadata is none', () => {
    const container = (resources: unknown) => withUpstreamDefaults({
      apiVersion: 'kubeflow.org/v1',
      kind: 'JAXJob',
      metadata: { name: 'a' },
      spec: { jaxReplicaSpecs: { Worker: { template: { metadata: {}, spec: { containers: [{ name: 'jax', image: 'i', ports: [{ containerPort: 6666, name: 'jaxjob-port' }], resources }] } } } } },
    }).spec.jaxReplicaSpecs.Worker.template;
    expect(container({ limits: { 'cpu': 2, 'memory': '4Gi', 'nvidia.com/gpu': 1 }, requests: { cpu: '500m' } })).toEqual({
      spec: {
        containers: [{
          name: 'jax',
          image: 'i',
          ports: [{ containerPort: 6666, name: 'jaxjob-port' }],
          resources: { limits: { 'cpu': '2', 'memory': '4Gi', 'nvidia.com/gpu': '1' }, requests: { 'cpu': '500m', 'memory': '4Gi', 'nvidia.com/gpu': '1' } },
        }],
      },
    });
  });

  test('any other object is returned as it is (an MXJob has no construct, a TrainJob no operator defaults)', () => {
    const mx = { apiVersion: 'kubeflow.org/v1', kind: 'MXJob', metadata: { name: 'a' }, spec: { mxReplicaSpecs: {} } };
    const trainJob = { apiVersion: 'trainer.kubeflow.org/v1alpha1', kind: 'TrainJob', metadata: { name: 'a' }, spec: {} };
    expect(withUpstreamDefaults(mx)).toBe(mx);
    expect(withUpstreamDefaults(trainJob)).toBe(trainJob);
  });
});

describe('a v1 job said by its construct', () => {
  test('a JAXJob as the construct writes it: the construct alone, identical as written, valid against the CRD', () => {
    const yaml = [
      'apiVersion: kubeflow.org/v1',
      'kind: JAXJob',
      'metadata: {name: jax-mnist, namespace: training, labels: {kueue.x-k8s.io/queue-name: team-a}}',
      'spec:',
      '  jaxReplicaSpecs:',
      '    Worker:',
      '      replicas: 4',
      '      restartPolicy: OnFailure',
      '      template:',
      '        metadata: {annotations: {sidecar.istio.io/inject: "false"}}',
      '        spec:',
      '          automountServiceAccountToken: false',
      '          containers:',
      '            - name: jax',
      '              image: ghcr.io/kubeflow/training-v1/jaxjob-dist-spmd-mnist:latest',
      '              command: [python3, train.py]',
      '              env: [{name: XLA_FLAGS, value: --xla_gpu_enable_latency_hiding_scheduler=true}]',
      '              ports: [{containerPort: 6666, name: jaxjob-port}]',
      '              resources:',
      '                limits: {cpu: "4", memory: 16Gi, nvidia.com/gpu: 1}',
      '                requests: {cpu: "4", memory: 16Gi, nvidia.com/gpu: 1}',
      '              securityContext: {allowPrivilegeEscalation: false, privileged: false}',
      '              volumeMounts: [{mountPath: /dev/shm, name: dshm}]',
      '          tolerations: [{effect: NoSchedule, key: nvidia.com/gpu, operator: Exists}]',
      '          volumes: [{name: dshm, emptyDir: {medium: Memory, sizeLimit: 2048Mi}}]',
    ].join('\n');
    const c = convertYaml('jax', yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 JAXJob: 1 by its L2 construct']);
    expect(c.code).toMatchSnapshot();
    expect(c.synthesized).toStrictEqual(c.input);
    expectValidManifests(c.synthesized);
  });

  test('an upstream TFJob that leaves defaults to the operator: the construct, its hardening patched out, the rest the operator\'s defaults', () => {
    const yaml = [
      'apiVersion: kubeflow.org/v1',
      'kind: TFJob',
      'metadata: {name: dist-mnist}',
      'spec:',
      '  tfReplicaSpecs:',
      ...role('PS', ['containers: [{name: tensorflow, image: "tf:1"}]']),
      '    Worker:',
      '      replicas: 2',
      '      template:',
      '        spec:',
      '          containers: [{name: tensorflow, image: "tf:1", resources: {limits: {cpu: 1}}}]',
    ].join('\n');
    const c = convertYaml('tf', yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 TFJob: 1 by its L2 construct with JSON patches']);
    expect(c.code).toMatchSnapshot();
    expect(c.synthesized.map(withUpstreamDefaults)).toStrictEqual(c.input.map(withUpstreamDefaults));
    // As written, the synthesized job differs in the defaulted fields alone.
    expect(differences(c.input[0], c.synthesized[0]).map(p => p.join('/'))).toEqual([
      'spec/runPolicy',
      'spec/tfReplicaSpecs/PS/restartPolicy',
      'spec/tfReplicaSpecs/PS/template/metadata',
      'spec/tfReplicaSpecs/PS/template/spec/containers/0/ports',
      'spec/tfReplicaSpecs/Worker/restartPolicy',
      'spec/tfReplicaSpecs/Worker/template/metadata',
      'spec/tfReplicaSpecs/Worker/template/spec/containers/0/ports',
      'spec/tfReplicaSpecs/Worker/template/spec/containers/0/resources/limits/cpu',
      'spec/tfReplicaSpecs/Worker/template/spec/containers/0/resources/requests',
    ]);
    expect(c.synthesized[0].spec.runPolicy).toEqual({ cleanPodPolicy: 'None' });
    expectValidManifests(c.synthesized);
  });

  test('options every pod shares are the job\'s, the others the role\'s; Kueue\'s labels are the queue props', () => {
    const c = convertYaml('roles', pytorch([
      '  nprocPerNode: "2"',
      '  pytorchReplicaSpecs:',
      ...role('Master', ['containers: [{name: pytorch, image: "torch:1", command: [torchrun, a.py], securityContext: {allowPrivilegeEscalation: false, privileged: false}}]',
        'automountServiceAccountToken: false', 'nodeSelector: {pool: cpu}'], ['      restartPolicy: OnFailure']),
      ...role('Worker', ['containers: [{name: pytorch, image: "torch:1", command: [torchrun, a.py], securityContext: {allowPrivilegeEscalation: false, privileged: false}}]',
        'automountServiceAccountToken: false', 'nodeSelector: {pool: gpu}'], ['      restartPolicy: Never']),
    ]).replace('metadata: {name: mnist, namespace: ml}', 'metadata: {name: mnist, namespace: ml, labels: {team: a, kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: low}}'));
    expect(c.tiers).toEqual(['kubeflow.org/v1 PyTorchJob: 1 by its L2 construct']);
    const props = c.code.slice(c.code.indexOf('new DistributedPyTorch'));
    expect(props).toBe([
      'new DistributedPyTorch(stdinChart, \'pytorchjob-mnist\', {',
      '    metadata: {',
      '      name: \'mnist\',',
      '      namespace: \'ml\',',
      '      labels: {',
      '        team: \'a\',',
      '      },',
      '    },',
      '    queue: \'q\',',
      '    workloadPriorityClass: \'low\',',
      '    image: \'torch:1\',',
      '    command: [\'torchrun\', \'a.py\'],',
      '    master: {',
      '      nodeSelector: {',
      '        pool: \'cpu\',',
      '      },',
      '    },',
      '    worker: {',
      '      nodeSelector: {',
      '        pool: \'gpu\',',
      '      },',
      '      restartPolicy: RestartPolicy.NEVER,',
      '    },',
      '    nprocPerNode: NprocPerNode.of(2),',
      '    istioSidecar: true,',
      '  });',
      '}',
      '',
    ].join('\n'));
    expect(c.synthesized.map(withUpstreamDefaults)).toStrictEqual(c.input.map(withUpstreamDefaults));
  });

  test('two fields the construct cannot say are patched in, each with its comment; a third leaves the job to its L1, naming the three', () => {
    const xgboost = (pod: string[]) => [
      'apiVersion: kubeflow.org/v1',
      'kind: XGBoostJob',
      'metadata: {name: iris}',
      'spec:',
      '  xgbReplicaSpecs:',
      ...role('Master', ['containers: [{name: xgboost, image: "xgb:1", securityContext: {allowPrivilegeEscalation: false, privileged: false}}]',
        'automountServiceAccountToken: false', ...pod]),
    ].join('\n');
    const two = convertYaml('two', xgboost(['hostIPC: true', 'schedulerName: batch']));
    expect(two.tiers).toEqual(['kubeflow.org/v1 XGBoostJob: 1 by its L2 construct with JSON patches']);
    // (The comment on what upstream's defaulting gives anyway is checked in convert-hand-written.test.ts.)
    expect(commentsOf(two.code).filter(c => !c.startsWith('// Upstream\'s defaulting'))).toEqual([
      '// The construct does not say Master.template.spec.hostIPC as written.',
      '// The construct does not say Master.template.spec.schedulerName as written.',
    ]);
    expect(two.code).toContain([
      '  }).apiObject.addJsonPatch(',
      '    // The construct does not say Master.template.spec.hostIPC as written.',
      '    JsonPatch.add(\'/spec/xgbReplicaSpecs/Master/template/spec/hostIPC\', true),',
      '    // The construct does not say Master.template.spec.schedulerName as written.',
      '    JsonPatch.add(\'/spec/xgbReplicaSpecs/Master/template/spec/schedulerName\', \'batch\'),',
      '  );',
    ].join('\n'));
    expect(two.synthesized.map(withUpstreamDefaults)).toStrictEqual(two.input.map(withUpstreamDefaults));

    const three = convertYaml('three', xgboost(['hostIPC: true', 'schedulerName: batch', 'runtimeClassName: nvidia']));
    expect(three.tiers).toEqual(['kubeflow.org/v1 XGBoostJob: 1 by its typed L1 class']);
    expect(commentsOf(three.code)).toEqual([
      '// The DistributedXGBoost construct does not say Master.template.spec.hostIPC, Master.template.spec.runtimeClassName, Master.template.spec.schedulerName (3 fields, one patched alike in several pods counted once; convert patches at most 2); its typed L1 class says it.',
    ]);
    expect(three.synthesized).toStrictEqual(three.input);
  });
  test('the restricted preset and gang scheduling are the job\'s props when every pod has them', () => {
    const yaml = [
      'apiVersion: kubeflow.org/v1',
      'kind: JAXJob',
      'metadata: {name: jax, namespace: research}',
      'spec:',
      '  runPolicy: {schedulingPolicy: {minAvailable: 1, queue: research, scheduleTimeoutSeconds: 600}}',
      '  jaxReplicaSpecs:',
      '    Worker:',
      '      replicas: 2',
      '      restartPolicy: Never',
      '      template:',
      '        metadata: {annotations: {sidecar.istio.io/inject: "false"}}',
      '        spec:',
      '          automountServiceAccountToken: false',
      '          schedulerName: volcano',
      '          securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}',
      '          containers:',
      '            - name: jax',
      '              image: "jax:1"',
      '              ports: [{containerPort: 6666, name: jaxjob-port}]',
      '              securityContext: {allowPrivilegeEscalation: false, privileged: false, runAsNonRoot: true, runAsUser: 1000,',
      '                capabilities: {drop: [ALL]}, seccompProfile: {type: RuntimeDefault}}',
    ].join('\n');
    const c = convertYaml('restricted', yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 JAXJob: 1 by its L2 construct']);
    expect(c.code.slice(c.code.indexOf('    workers: 2,'))).toBe([
      '    workers: 2,',
      '    image: \'jax:1\',',
      '    securityContext: {',
      '      user: 1000,',
      '    },',
      '    gangScheduling: {',
      '      scheduler: GangScheduler.VOLCANO,',
      '      minAvailable: 1,',
      '      queue: \'research\',',
      '      scheduleTimeout: Duration.seconds(600),',
      '    },',
      '    security: PodSecurity.RESTRICTED,',
      '  });',
      '}',
      '',
    ].join('\n'));
    expect(c.synthesized).toStrictEqual(c.input);
    expectValidManifests(c.synthesized);
  });

  test('claims every pod mounts alike are mounted on the job, in a block that names it; readOnly false is the Go default', () => {
    const pod = [
      'containers: [{name: paddle, image: "p:1", securityContext: {allowPrivilegeEscalation: false, privileged: false},',
      '  volumeMounts: [{mountPath: /data, name: pvc-dataset, readOnly: true}, {mountPath: /out, name: out}]}]',
      'automountServiceAccountToken: false',
      'volumes: [{name: out, persistentVolumeClaim: {claimName: results}}, {name: pvc-dataset, persistentVolumeClaim: {claimName: dataset, readOnly: true}}]',
    ];
    const yaml = ['apiVersion: kubeflow.org/v1', 'kind: PaddleJob', 'metadata: {name: ctr}', 'spec:', '  paddleReplicaSpecs:', ...role('Worker', pod)].join('\n');
    const c = convertYaml('claims', yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 PaddleJob: 1 by its L2 construct']);
    expect(c.code).toContain([
      '  {',
      '    const job = new DistributedPaddle(stdinChart, \'paddlejob-ctr\', {',
      '      metadata: {',
      '        name: \'ctr\',',
      '      },',
      '      image: \'p:1\',',
      '      istioSidecar: true,',
      '    });',
      '    const pvcDatasetVolume = Volume.fromPersistentVolumeClaim(',
      '      stdinChart,',
      '      \'paddlejob-ctr-pvc-dataset\',',
      '      PersistentVolumeClaim.fromClaimName(stdinChart, \'paddlejob-ctr-pvc-dataset-claim\', \'dataset\'),',
      '      { readOnly: true },',
      '    );',
      '    job.mount(\'/data\', pvcDatasetVolume, { readOnly: true });',
      '    const outVolume = Volume.fromPersistentVolumeClaim(',
      '      stdinChart,',
      '      \'paddlejob-ctr-out\',',
      '      PersistentVolumeClaim.fromClaimName(stdinChart, \'paddlejob-ctr-out-claim\', \'results\'),',
      '      { name: \'out\' },',
      '    );',
      '    job.mount(\'/out\', outVolume);',
      '  }',
    ].join('\n'));
    expect(c.synthesized.map(withUpstreamDefaults)).toStrictEqual(c.input.map(withUpstreamDefaults));
    expect(differences(c.input[0], c.synthesized[0]).map(p => p.join('/'))).toEqual([
      'spec/paddleReplicaSpecs/Worker/restartPolicy',
      'spec/paddleReplicaSpecs/Worker/template/metadata',
      'spec/paddleReplicaSpecs/Worker/template/spec/containers/0/ports',
      'spec/paddleReplicaSpecs/Worker/template/spec/volumes/0/persistentVolumeClaim/readOnly',
    ]);
    expectValidManifests(c.synthesized);
  });

  test('claims that differ between the pods are not the job\'s: the volumes and mounts are patched in', () => {
    const pod = (claim: string) => [
      'containers: [{name: xgboost, image: "x:1", volumeMounts: [{mountPath: /data, name: data}], securityContext: {allowPrivilegeEscalation: false, privileged: false}}]',
      'automountServiceAccountToken: false',
      `volumes: [{name: data, persistentVolumeClaim: {claimName: ${claim}}}]`,
    ];
    const yaml = ['apiVersion: kubeflow.org/v1', 'kind: XGBoostJob', 'metadata: {name: iris}', 'spec:', '  xgbReplicaSpecs:', ...role('Master', pod('train'))].join('\n');
    const one = convertYaml('claims-master', yaml);
    expect(one.tiers).toEqual(['kubeflow.org/v1 XGBoostJob: 1 by its L2 construct']);
    expect(one.synthesized.map(withUpstreamDefaults)).toStrictEqual(one.input.map(withUpstreamDefaults));
    const mixed = convertYaml('claims-mixed', [yaml, ...role('Worker', pod('test'))].join('\n'));
    expect(mixed.tiers).toEqual(['kubeflow.org/v1 XGBoostJob: 1 by its typed L1 class']);
    expect(commentsOf(mixed.code)).toEqual([
      '// The DistributedXGBoost construct does not say Master.template.spec.containers.0.volumeMounts, Master.template.spec.volumes, Worker.template.spec.containers.0.volumeMounts, Worker.template.spec.volumes (3 fields, one patched alike in several pods counted once; convert patches at most 2); its typed L1 class says it.',
    ]);
    expect(mixed.synthesized).toStrictEqual(mixed.input);
  });
});

describe('a v1 job left to its L1, and why', () => {
  test.each([
    ['a sidecar container', pytorch(['  pytorchReplicaSpecs:', ...role('Master', ['containers: [{name: pytorch, image: "t:1"}, {name: proxy, image: "p:1"}]'])]),
      '// The DistributedPyTorch construct writes one container named pytorch in the Master pods (sidecars are added after construction, which convert does not write); its typed L1 class says it.'],
    ['more than 2 fields to patch (the host\'s IPC and PID namespaces, a scheduler; the accelerators\' toleration the construct adds is not counted)',
      pytorch(['  pytorchReplicaSpecs:', ...role('Master', ['containers: [{name: pytorch, image: "t:1", resources: {limits: {nvidia.com/gpu: 1}}}]', 'hostIPC: true', 'hostPID: true', 'schedulerName: batch']),
        ...role('Worker', ['containers: [{name: pytorch, image: "t:1", resources: {limits: {nvidia.com/gpu: 1}}}]'])]),
      '// The DistributedPyTorch construct does not say Master.template.spec.hostIPC, Master.template.spec.hostPID, Master.template.spec.schedulerName (3 fields, one patched alike in several pods counted once; convert patches at most 2); its typed L1 class says it.'],
  ])('%s', (name, yaml, comment) => {
    const c = convertYaml(name.replace(/\W+/g, '-'), yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 PyTorchJob: 1 by its typed L1 class']);
    expect(commentsOf(c.code)).toEqual([comment]);
    expect(c.synthesized).toStrictEqual(c.input);
  });

  test.each([
    ['a static job without a Master', pytorch(['  pytorchReplicaSpecs:', ...role('Worker', ['containers: [{name: pytorch, image: "t:1"}]'])]),
      '(spec.pytorchReplicaSpecs.Master is not set; expected a Master in a job without elasticPolicy: the operator sets RANK and WORLD_SIZE only when one exists)'],
    ['a container of another name', pytorch(['  pytorchReplicaSpecs:', ...role('Master', ['containers: [{name: trainer, image: "t:1"}]'])]),
      '(spec.pytorchReplicaSpecs.Master.template.spec.containers is ["trainer"]; expected a container named "pytorch": the operator looks for it to add its port and environment)'],
  ])('a job lint finds fault with (%s): the construct would refuse it at synth, and the comment quotes the finding', (name, yaml, finding) => {
    const c = convertYaml(name.replace(/\W+/g, '-'), yaml);
    expect(c.tiers).toEqual(['kubeflow.org/v1 PyTorchJob: 1 by its typed L1 class']);
    expect(commentsOf(c.code)).toEqual([`// The DistributedPyTorch construct would refuse it at synth ${finding}; its typed L1 class says it.`]);
    expect(c.synthesized).toStrictEqual(c.input);
  });
});

test('every module above type checks and passes the project\'s ESLint configuration', async () => {
  expect(modules.size).toBe(13);
  expect(typeErrors(modules, scratch)).toEqual([]);
  expect(await lintMessages([...modules.keys()].map(m => path.join(scratch, m)))).toEqual([]);
});
