import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  Accelerator, CleanPodPolicy, DistributedPyTorch, DistributedPyTorchProps, GangScheduler, ManagedBy,
  NprocPerNode, RendezvousBackend, RestartPolicy,
} from '../../src';
import { synthErrors, synthKind } from '../harness';
import { PYTORCH_IMAGE as IMAGE } from '../harness/job-fixtures';
import { DNS_1035_LABEL, INJECTED_ENV, REPORT, WHOLE_NUMBER_0_OR_MORE, WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';


/** Synthesizes twice (asserting identical bytes), validates strictly, returns the PyTorchJob. */
function synthJob(props: Partial<DistributedPyTorchProps> = {}, after?: (job: DistributedPyTorch, chart: Chart) => void): any {
  return synthKind('PyTorchJob', chart => {
    const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


describe('static jobs', () => {
  test('the reference job: one Master with replicas 1 and three workers, one GPU each', () => {
    const job = synthJob({
      command: ['python', '/workspace/train.py'],
      workers: 3,
      resources: { accelerator: Accelerator.nvidia(1), cpu: kplus.Cpu.units(8), memory: Size.gibibytes(32) },
    });
    const specs = job.spec.pytorchReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Master', 'Worker']);
    expect(specs.Master.replicas).toBe(1);
    expect(specs.Worker.replicas).toBe(3);
    for (const role of ['Master', 'Worker']) {
      const container = specs[role].template.spec.containers[0];
      expect(specs[role].restartPolicy).toBe('OnFailure');
      expect(container.name).toBe('pytorch');
      expect(container.ports).toEqual([{ containerPort: 23456, name: 'pytorchjob-port' }]);
      expect(container.command).toEqual(['python', '/workspace/train.py']);
      // Extended resources need a limit; requests are written equal.
      expect(container.resources.limits).toEqual({ 'cpu': '8', 'memory': '32Gi', 'nvidia.com/gpu': 1 });
      expect(container.resources.requests).toEqual(container.resources.limits);
      expect(specs[role].template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
      expect(specs[role].template.spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
      expect(specs[role].template.spec.restartPolicy).toBeUndefined();
    }
    expect(job.spec.nprocPerNode).toBe('1');
    expect(job.spec.elasticPolicy).toBeUndefined();
  });

  test('workers: 0 makes a single-node job with the Master alone', () => {
    const job = synthJob({ workers: 0 });
    expect(Object.keys(job.spec.pytorchReplicaSpecs)).toEqual(['Master']);
  });

  test('nprocPerNode follows the accelerators per pod, or is written as given', () => {
    expect(synthJob({ resources: { accelerator: Accelerator.nvidia(4) } }).spec.nprocPerNode).toBe('4');
    expect(synthJob({ resources: { accelerator: Accelerator.nvidia(4) }, nprocPerNode: NprocPerNode.GPU }).spec.nprocPerNode).toBe('gpu');
    expect(synthJob({ nprocPerNode: NprocPerNode.of(2) }).spec.nprocPerNode).toBe('2');
    expect(synthJob({}).spec.nprocPerNode).toBeUndefined();
  });

  test('per-role options override the job options; maps merge', () => {
    const job = synthJob({
      env: { LOGLEVEL: kplus.EnvValue.fromValue('INFO') },
      master: { resources: { cpu: kplus.Cpu.units(2) }, env: { ROLE: kplus.EnvValue.fromValue('master') }, restartPolicy: RestartPolicy.EXIT_CODE },
      worker: { image: 'custom:1' },
      resources: { accelerator: Accelerator.amd(2) },
      // The Master has no accelerator here, so one process per GPU cannot be derived for every pod.
      nprocPerNode: NprocPerNode.GPU,
    });
    const master = job.spec.pytorchReplicaSpecs.Master;
    const worker = job.spec.pytorchReplicaSpecs.Worker;
    expect(master.restartPolicy).toBe('ExitCode');
    expect(master.template.spec.containers[0].resources.limits).toEqual({ cpu: '2' });
    expect(master.template.spec.containers[0].env).toEqual([{ name: 'LOGLEVEL', value: 'INFO' }, { name: 'ROLE', value: 'master' }]);
    expect(worker.template.spec.containers[0].image).toBe('custom:1');
    expect(worker.template.spec.containers[0].resources.limits).toEqual({ 'amd.com/gpu': 2 });
  });
});

describe('elastic jobs', () => {
  test('run workers only, with the elastic policy and rendezvous settings', () => {
    const job = synthJob({
      workers: 2,
      elastic: {
        minWorkers: 1,
        maxWorkers: 4,
        rendezvousBackend: RendezvousBackend.C10D,
        rendezvousPort: 29400,
        rendezvousConf: { timeout: '900', join_timeout: '300' },
        maxRestarts: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
    });
    expect(Object.keys(job.spec.pytorchReplicaSpecs)).toEqual(['Worker']);
    expect(job.spec.elasticPolicy).toEqual({
      minReplicas: 1,
      maxReplicas: 4,
      rdzvBackend: 'c10d',
      rdzvPort: 29400,
      rdzvConf: [{ key: 'join_timeout', value: '300' }, { key: 'timeout', value: '900' }],
      maxRestarts: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });
});

describe('what torchrun and the operator do with what the job writes (issue 41)', () => {
  const elastic = (rendezvous: Partial<NonNullable<DistributedPyTorchProps['elastic']>>) => (c: Chart) =>
    new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2, elastic: { minWorkers: 1, maxWorkers: 4, ...rendezvous } });
  const torchrunExits = 'torchrun refuses the PET_RDZV_CONF the operator writes, and every worker exits at start';

  test('rendezvous settings torchrun cannot read are refused at synth, named by their prop', () => {
    expect(synthErrors(elastic({ rendezvousPort: 70000, rendezvousHost: 'etcd 0', rendezvousConf: { 'a,b': '1', 'timeout': '' } }))).toBe(
      REPORT
      + `  [test/job] spec.elasticPolicy.rdzvConf[0].key (elastic.rendezvousConf) is "a,b"; expected a key without ",": torchrun splits PET_RDZV_CONF at each ",", so it reads a part without a value; ${torchrunExits}\n`
      + `  [test/job] spec.elasticPolicy.rdzvConf[1].value (elastic.rendezvousConf) is ""; expected a value for "timeout": ${torchrunExits}\n`
      + '  [test/job] spec.elasticPolicy.rdzvPort (elastic.rendezvousPort) is 70000; expected a port of 0 to 65535: the operator passes it to torchrun in PET_RDZV_ENDPOINT, which refuses any other, and every worker exits at start\n'
      + '  [test/job] spec.elasticPolicy.rdzvHost (elastic.rendezvousHost) is "etcd 0"; expected a host name or IP address (letters, digits, "_", ".", ":", "-"; an IPv6 address may be in brackets), '
      + 'or no rdzvHost for the first worker: torchrun refuses the PET_RDZV_ENDPOINT the operator writes, and every worker exits at start');
  });

  test('an empty rendezvousConf writes no rdzvConf (the operator fails on an empty list)', () => {
    const job = synthJob({ workers: 2, elastic: { minWorkers: 1, maxWorkers: 4, rendezvousConf: {} } });
    expect(job.spec.elasticPolicy).toEqual({ minReplicas: 1, maxReplicas: 4 });
  });

  test('a pod label the operator writes itself is refused on every replica type', () => {
    const overwritten = 'expected no "training.kubeflow.org/job-name" label on the pod template: the operator writes the job\'s name under this key on every pod it creates, over this value';
    expect(synthErrors(c => new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 2 }).addPodLabel('training.kubeflow.org/job-name', 'other'))).toBe(
      REPORT
      + `  [test/job] spec.pytorchReplicaSpecs.Master.template.metadata.labels["training.kubeflow.org/job-name"] is "other"; ${overwritten}\n`
      + `  [test/job] spec.pytorchReplicaSpecs.Worker.template.metadata.labels["training.kubeflow.org/job-name"] is "other"; ${overwritten}`);
  });
});

describe('volumes, mounts and shared memory', () => {
  test('mount() after construction lands in every replica; dataset read-only, checkpoints shared', () => {
    const job = synthJob({ workers: 1, sharedMemory: Size.gibibytes(8) }, (j, chart) => {
      const dataset = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Dataset', 'imagenet');
      j.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'DataVolume', dataset, { readOnly: true }), { readOnly: true });
      const checkpoints = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Checkpoints', 'ckpt');
      j.mount('/checkpoints', kplus.Volume.fromPersistentVolumeClaim(chart, 'CkptVolume', checkpoints));
      const config = new kplus.ConfigMap(chart, 'Config', { metadata: { name: 'train-config' }, data: { 'train.yaml': 'epochs: 1' } });
      j.mount('/etc/train', kplus.Volume.fromConfigMap(chart, 'ConfigVolume', config));
    });
    for (const role of ['Master', 'Worker']) {
      const pod = job.spec.pytorchReplicaSpecs[role].template.spec;
      expect(pod.containers[0].volumeMounts).toEqual([
        { mountPath: '/dev/shm', name: 'dshm' },
        { mountPath: '/data', name: 'pvc-imagenet', readOnly: true },
        { mountPath: '/checkpoints', name: 'pvc-ckpt' },
        { mountPath: '/etc/train', name: 'configmap-train-config' },
      ]);
      expect(pod.volumes).toEqual([
        { name: 'configmap-train-config', configMap: { name: 'train-config' } },
        { name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '8192Mi' } },
        { name: 'pvc-ckpt', persistentVolumeClaim: { claimName: 'ckpt', readOnly: false } },
        { name: 'pvc-imagenet', persistentVolumeClaim: { claimName: 'imagenet', readOnly: true } },
      ]);
    }
  });

  test('per-role tweaks through job.master and job.worker', () => {
    const job = synthJob({ workers: 2 }, (j, chart) => {
      j.worker!.addToleration({ key: 'spot', operator: 'Exists', effect: 'NoSchedule' });
      j.worker!.addNodeSelector('pool', 'gpu-a100');
      j.master!.addPodAnnotation('prometheus.io/scrape', 'true');
      j.master!.addEnv('TOKEN', kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, 'Tok', 'hf-token'), key: 'token' }));
      j.worker!.addContainer({ name: 'metrics', image: 'exporter:1', portNumber: 9100 });
      j.worker!.scale(3);
    });
    const master = job.spec.pytorchReplicaSpecs.Master.template;
    const worker = job.spec.pytorchReplicaSpecs.Worker;
    expect(worker.replicas).toBe(3);
    expect(worker.template.spec.tolerations).toEqual([{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(worker.template.spec.nodeSelector).toEqual({ pool: 'gpu-a100' });
    expect(worker.template.spec.containers.map((c: any) => c.name)).toEqual(['pytorch', 'metrics']);
    expect(master.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'sidecar.istio.io/inject': 'false' });
    // A secret reference stays a reference: the value never appears in the manifest.
    expect(master.spec.containers[0].env).toEqual([{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } } }]);
  });
});

describe('run policy and scheduling', () => {
  test('run policy fields', () => {
    const job = synthJob({
      runPolicy: {
        cleanPodPolicy: CleanPodPolicy.RUNNING,
        ttlAfterFinished: Duration.hours(6),
        activeDeadline: Duration.days(2),
        backoffLimit: 3,
        suspend: true,
        managedBy: ManagedBy.MULTI_KUEUE,
      },
      // MultiKueue dispatches only queued jobs.
      queue: 'team-vision',
    });
    expect(job.spec.runPolicy).toEqual({
      cleanPodPolicy: 'Running',
      ttlSecondsAfterFinished: 21600,
      activeDeadlineSeconds: 172800,
      backoffLimit: 3,
      suspend: true,
      managedBy: 'kueue.x-k8s.io/multikueue',
    });
  });

  test('MultiKueue without a queue is refused: no controller would ever run the job', () => {
    expect(synthErrors(c => new DistributedPyTorch(c, 'job', { metadata: { name: 'train' }, image: IMAGE, runPolicy: { managedBy: ManagedBy.MULTI_KUEUE } }))).toBe(
      REPORT
      + '  [test/job] metadata.labels["kueue.x-k8s.io/queue-name"] is not set; expected the name of a Kueue LocalQueue when spec.runPolicy.managedBy is "kueue.x-k8s.io/multikueue" (without it no controller runs the job)');
  });

  test('Kueue queue and workload priority become labels on the job', () => {
    const job = synthJob({ queue: 'team-vision', workloadPriorityClass: 'high', metadata: { name: 'train', labels: { app: 'resnet' } } });
    expect(job.metadata.labels).toEqual({ 'app': 'resnet', 'kueue.x-k8s.io/priority-class': 'high', 'kueue.x-k8s.io/queue-name': 'team-vision' });
  });

  test('gang scheduling: minAvailable defaults to every pod, pods name the scheduler', () => {
    const job = synthJob({
      workers: 3,
      gangScheduling: { scheduler: GangScheduler.VOLCANO, queue: 'research', minResources: { 'nvidia.com/gpu': '4' }, scheduleTimeout: Duration.minutes(10), priorityClass: 'batch' },
    });
    expect(job.spec.runPolicy.schedulingPolicy).toEqual({
      minAvailable: 4, queue: 'research', minResources: { 'nvidia.com/gpu': '4' }, priorityClass: 'batch', scheduleTimeoutSeconds: 600,
    });
    for (const role of ['Master', 'Worker']) {
      expect(job.spec.pytorchReplicaSpecs[role].template.spec.schedulerName).toBe('volcano');
    }
    const plugins = synthJob({ gangScheduling: { scheduler: GangScheduler.SCHEDULER_PLUGINS, minAvailable: 1 } });
    expect(plugins.spec.runPolicy.schedulingPolicy).toEqual({ minAvailable: 1 });
    expect(plugins.spec.pytorchReplicaSpecs.Worker.template.spec.schedulerName).toBe('scheduler-plugins-scheduler');
  });

  test('istioSidecar: true keeps injection', () => {
    const job = synthJob({ istioSidecar: true });
    expect(job.spec.pytorchReplicaSpecs.Master.template.metadata).toEqual({});
  });
});

describe('validation', () => {
  const bad = (props: Partial<DistributedPyTorchProps>) => () => new DistributedPyTorch(new Chart(Testing.app(), 'test'), 'job', { image: IMAGE, ...props });

  test('impossible single values throw at once with path, field, value and what is allowed', () => {
    expect(bad({ workers: -1 })).toThrow(`test/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(bad({ workers: 1.5 })).toThrow(`test/job: workers is 1.5; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(bad({ resources: { accelerator: Accelerator.nvidia(0) } }))
      .toThrow('test/job: resources.accelerator is "nvidia.com/gpu x 0"; expected a whole number of devices greater than 0 (got 0)');
    expect(bad({ master: { resources: { accelerator: Accelerator.nvidia(0) } } }))
      .toThrow('test/job/Master: resources.accelerator (master.resources.accelerator) is "nvidia.com/gpu x 0"; expected a whole number of devices greater than 0 (got 0)');
    expect(bad({ resources: { accelerator: Accelerator.custom('gpu', 1) } }))
      .toThrow('test/job: resources.accelerator is "gpu x 1"; expected a qualified extended resource name such as "vendor.com/device" (got "gpu")');
    expect(bad({ elastic: { minWorkers: 3, maxWorkers: 2 } })).toThrow('test/job: elastic.minWorkers is 3; expected at most elastic.maxWorkers (2)');
    expect(bad({ workers: 0, elastic: { minWorkers: 1, maxWorkers: 2 } })).toThrow('test/job: workers is 0; expected at least 1 for an elastic job, which runs workers only');
    expect(bad({ nprocPerNode: NprocPerNode.of(0) })).toThrow(`test/job: nprocPerNode is 0; ${WHOLE_NUMBER_1_OR_MORE}`);
    expect(bad({ workers: 5, elastic: { minWorkers: 1, maxWorkers: 3 } })).toThrow('test/job: workers is 5; expected a count between elastic.minWorkers (1) and elastic.maxWorkers (3)');
    expect(bad({ runPolicy: { backoffLimit: -2 } })).toThrow(`test/job: runPolicy.backoffLimit is -2; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(() => new DistributedPyTorch(new Chart(Testing.app(), 'test'), 'job', {})).toThrow('test/job/Master: image is not set; expected a container image for the main container');
  });

  test('cross-field mistakes fail at synth time, naming every problem', () => {
    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', { metadata: { name: 'Train_Job' }, image: IMAGE }))).toBe(
      REPORT +
      `  [test/job] metadata.name is "Train_Job"; ${DNS_1035_LABEL}`);

    const long = 'a'.repeat(55);
    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', { metadata: { name: long }, image: IMAGE, workers: 16 }))).toContain(
      `[test/job] metadata.name is "${long}"; expected a name of at most 53 characters, so that the pod and service name "${long}-worker-15" fits in 63`);

    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, env: { MASTER_ADDR: kplus.EnvValue.fromValue('x'), PET_NNODES: kplus.EnvValue.fromValue('2') },
    }))).toBe(REPORT +
      `  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].env[MASTER_ADDR] (env) is {"name":"MASTER_ADDR","value":"x"}; ${INJECTED_ENV}\n` +
      `  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].env[PET_NNODES] (env) is {"name":"PET_NNODES","value":"2"}; ${INJECTED_ENV}\n` +
      `  [test/job] spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[MASTER_ADDR] (env) is {"name":"MASTER_ADDR","value":"x"}; ${INJECTED_ENV}\n` +
      `  [test/job] spec.pytorchReplicaSpecs.Worker.template.spec.containers[pytorch].env[PET_NNODES] (env) is {"name":"PET_NNODES","value":"2"}; ${INJECTED_ENV}`);

    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, resources: { accelerator: Accelerator.nvidia(2) }, nprocPerNode: NprocPerNode.of(4), workers: 0,
    }))).toBe(REPORT +
      '  [test/job] nprocPerNode is 4; expected at most the 2 accelerators per Master pod; more processes than devices oversubscribe them');

    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, workers: 0, restartPolicy: RestartPolicy.EXIT_CODE, podRestartPolicy: RestartPolicy.ALWAYS,
    }))).toBe(REPORT +
      '  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy (podRestartPolicy) is "Always"; '
      + 'expected Never or none with restartPolicy ExitCode: the operator decides restarts by exit code and writes Never on the pods');
    // Never is what the operator writes for ExitCode, so saying it changes nothing.
    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, workers: 0, restartPolicy: RestartPolicy.EXIT_CODE, podRestartPolicy: RestartPolicy.NEVER,
    }))).toBeUndefined();

    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, workers: 0, podRestartPolicy: RestartPolicy.ALWAYS,
    }))).toBe(REPORT +
      '  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy (podRestartPolicy) is "Always"; expected OnFailure (the replica\'s restartPolicy, which the operator applies over it) or none');

    expect(synthErrors(chart => new DistributedPyTorch(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, workers: 1, gangScheduling: { scheduler: GangScheduler.VOLCANO, minAvailable: 3 },
    }))).toBe(REPORT +
      '  [test/job] spec.runPolicy.schedulingPolicy.minAvailable (gangScheduling.minAvailable) is 3; expected at most the job\'s 2 pods, or the group can never be scheduled');
  });

  test('two mounts at one path are refused at synth; an equal volume of one name is one volume', () => {
    expect(synthErrors(chart => {
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0, sharedMemory: Size.gibibytes(1) });
      job.mount('/dev/shm/', kplus.Volume.fromPersistentVolumeClaim(chart, 'AV', kplus.PersistentVolumeClaim.fromClaimName(chart, 'A', 'a')));
    })).toBe(REPORT
      + '  [test/job/Master] containers[pytorch].volumeMounts.mountPath is "/dev/shm/"; expected every mount path of a container to be used once; volume "dshm" is mounted there');
    const app = Testing.app();
    const chart = new Chart(app, 'test');
    const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0, sharedMemory: Size.gibibytes(1) });
    job.mount('/x', kplus.Volume.fromEmptyDir(chart, 'E1', 'scratch'));
    // The same volume again, or an equal one, is one volume.
    job.mount('/z', kplus.Volume.fromEmptyDir(chart, 'E3', 'scratch'));
    app.synth();
    const volumes = Testing.synth(chart)[0].spec.pytorchReplicaSpecs.Master.template.spec.volumes;
    expect(volumes.map((v: any) => v.name)).toEqual(['dshm', 'scratch']);
  });

  test('a port added to the framework container without a name is refused at synth: the operator\'s headless Service could not hold it', () => {
    expect(synthErrors(chart => {
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
      job.master!.mainContainer.addPort({ number: 8080 });
    })).toBe(REPORT
      + '  [test/job] spec.pytorchReplicaSpecs.Master.template.spec.containers[pytorch].ports[1] is {"containerPort":8080}; expected a name on every port of the "pytorch" container when it has several: the operator copies them onto the headless Service of each pod, and the API server refuses a Service port without a name beside others');
    expect(synthErrors(chart => {
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
      job.master!.mainContainer.addPort({ number: 8080, name: 'metrics' });
    })).toBeUndefined();
  });

  test('two volumes of one name are refused at synth, naming both, beside the other mistakes of the app', () => {
    expect(synthErrors(chart => {
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 1 });
      const claim = (id: string, name: string) => kplus.PersistentVolumeClaim.fromClaimName(chart, id, name);
      job.mount('/data', kplus.Volume.fromPersistentVolumeClaim(chart, 'A', claim('ClaimA', 'team-a-data'), { name: 'data' }));
      job.mount('/shared', kplus.Volume.fromPersistentVolumeClaim(chart, 'B', claim('ClaimB', 'team-b-data'), { name: 'data' }));
      job.mount('/x', kplus.Volume.fromEmptyDir(chart, 'E1', 'scratch'));
      job.mount('/y', kplus.Volume.fromEmptyDir(chart, 'E2', 'scratch', { medium: kplus.EmptyDirMedium.MEMORY }));
      // A mistake of another construct of the same app is in the same report.
      new DistributedPyTorch(chart, 'other', { metadata: { name: 'Other' }, image: IMAGE });
    })).toBe(REPORT
      + '  [test/job] volumes is "data"; expected each volume name to stand for one volume; it stands for claim "team-a-data" and claim "team-b-data": give one of them another name\n'
      + '  [test/job] volumes is "scratch"; expected each volume name to stand for one volume; it stands for emptyDir {} and emptyDir {"medium":"Memory"}: give one of them another name\n'
      + `  [test/other] metadata.name is "Other"; ${DNS_1035_LABEL}`);
  });

  test('a volume added with addVolume and another mounted under its name clash at synth', () => {
    expect(synthErrors(chart => {
      const job = new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, workers: 0 });
      const config = kplus.ConfigMap.fromConfigMapName(chart, 'Cfg', 'settings');
      job.master!.addVolume(kplus.Volume.fromConfigMap(chart, 'CfgVolume', config, { name: 'conf' }));
      job.master!.mount('/etc/conf', kplus.Volume.fromEmptyDir(chart, 'Empty', 'conf'));
      job.mount('/etc/more', kplus.Volume.fromEmptyDir(chart, 'Empty2', 'conf', { medium: kplus.EmptyDirMedium.MEMORY }));
    })).toBe(REPORT
      + '  [test/job] volumes is "conf"; expected each volume name to stand for one volume; it stands for ConfigMap "settings" and emptyDir {"medium":"Memory"}: give one of them another name\n'
      + '  [test/job/Master] volumes is "conf"; expected each volume name to stand for one volume; it stands for ConfigMap "settings" and emptyDir {}: give one of them another name');
  });

  test('a failed validation writes nothing', () => {
    const app = Testing.app();
    new DistributedPyTorch(new Chart(app, 'test'), 'job', { metadata: { name: 'Bad' }, image: IMAGE });
    expect(() => app.synth()).toThrow(/metadata.name is "Bad"/);
    expect(fs.readdirSync(app.outdir)).toEqual([]);
  });
});

test('names a job from its construct path when no name is given', () => {
  const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'pt-')) });
  const job = new DistributedPyTorch(new Chart(app, 'vision'), 'resnet', { image: IMAGE });
  expect(job.name).toMatch(/^vision-resnet-resource-[0-9a-f]{8}$|^vision-resnet-[0-9a-f]{8}$/);
});
