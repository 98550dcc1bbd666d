import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import reference from '../../examples/tensorflow-reference';
import {
  Accelerator, CleanPodPolicy, ParameterServerTF, ParameterServerTFProps, RestartPolicy, SuccessPolicy,
} from '../../src';
import { expectDeterministic, expectValidManifests, synthErrors, synthKind } from '../harness';
import { INJECTED_ENV, REPORT, WHOLE_NUMBER_0_OR_MORE } from '../harness/messages';

const IMAGE = 'tensorflow/tensorflow:2.17.0-gpu';

/** Synthesizes twice (asserting identical bytes), validates strictly, returns the TFJob. */
function synthJob(props: Partial<ParameterServerTFProps> = {}, after?: (job: ParameterServerTF, chart: Chart) => void): any {
  return synthKind('TFJob', chart => {
    const job = new ParameterServerTF(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, ...props });
    after?.(job, chart);
  });
}


function bad(props: Partial<ParameterServerTFProps>): () => ParameterServerTF {
  return () => new ParameterServerTF(new Chart(Testing.app(), 'test'), 'job', { image: IMAGE, ...props });
}

describe('the reference example', () => {
  test('one Chief, one PS and two GPU workers, byte-identical on every run and valid', () => {
    const docs = expectDeterministic(app => reference(app));
    expectValidManifests(docs);
    expect(docs).toHaveLength(1);
  });
});

describe('replica types', () => {
  test('Chief, PS and Worker with the exact keys, the tensorflow container and its port, restarting Never', () => {
    const job = synthJob({ chief: {}, parameterServers: 1, workers: 2, command: ['python', 'train.py'] });
    const specs = job.spec.tfReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Chief', 'PS', 'Worker']);
    expect([specs.Chief.replicas, specs.PS.replicas, specs.Worker.replicas]).toEqual([1, 1, 2]);
    for (const role of ['Chief', 'PS', 'Worker']) {
      const pod = specs[role].template.spec;
      expect(specs[role].restartPolicy).toBe('Never');
      expect(pod.containers).toHaveLength(1);
      expect(pod.containers[0].name).toBe('tensorflow');
      expect(pod.containers[0].ports).toEqual([{ containerPort: 2222, name: 'tfjob-port' }]);
      expect(pod.containers[0].command).toEqual(['python', 'train.py']);
      expect(pod.containers[0].env).toBeUndefined();
      expect(pod.restartPolicy).toBeUndefined();
    }
    expect(job.spec.successPolicy).toBeUndefined();
    expect(job.spec.enableDynamicWorker).toBeUndefined();
  });

  test('the defaults: one worker alone, no run policy', () => {
    const job = synthJob();
    expect(Object.keys(job.spec.tfReplicaSpecs)).toEqual(['Worker']);
    expect(job.spec.tfReplicaSpecs.Worker.replicas).toBe(1);
    expect(job.spec.runPolicy).toBeUndefined();
  });

  test('the getters return the groups that exist and undefined for the others', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test');
    const full = new ParameterServerTF(chart, 'full', { image: IMAGE, chief: {}, parameterServers: 2, workers: 3, evaluator: {} });
    expect(full.chief?.replicaType).toBe('Chief');
    expect(full.parameterServer?.replicas).toBe(2);
    expect(full.worker?.replicas).toBe(3);
    expect(full.evaluator?.replicaType).toBe('Evaluator');
    expect(full.master).toBeUndefined();
    expect(full.replicaGroups.map(g => g.replicaType)).toEqual(['Chief', 'PS', 'Worker', 'Evaluator']);
    const workersOnly = new ParameterServerTF(chart, 'plain', { image: IMAGE, workers: 2 });
    for (const absent of [workersOnly.chief, workersOnly.master, workersOnly.parameterServer, workersOnly.evaluator]) expect(absent).toBeUndefined();
  });

  test('the legacy Master in place of the Chief, and a Chief with no workers', () => {
    expect(Object.keys(synthJob({ master: {}, workers: 2 }).spec.tfReplicaSpecs)).toEqual(['Master', 'Worker']);
    const chiefOnly = synthJob({ chief: {}, workers: 0 });
    expect(Object.keys(chiefOnly.spec.tfReplicaSpecs)).toEqual(['Chief']);
  });

  test('per-role options override the job options; the role restart policy is the replica restart policy', () => {
    const job = synthJob({
      resources: { cpu: kplus.Cpu.units(2) },
      chief: { restartPolicy: RestartPolicy.ON_FAILURE, resources: { memory: Size.gibibytes(4) } },
      parameterServers: 1,
      parameterServer: { restartPolicy: RestartPolicy.EXIT_CODE },
      worker: { resources: { accelerator: Accelerator.nvidia(1) }, image: 'custom:1' },
      evaluator: { restartPolicy: RestartPolicy.ALWAYS },
    });
    const specs = job.spec.tfReplicaSpecs;
    expect(Object.keys(specs)).toEqual(['Chief', 'Evaluator', 'PS', 'Worker']); // cdk8s sorts keys
    expect(specs.Chief.restartPolicy).toBe('OnFailure');
    expect(specs.PS.restartPolicy).toBe('ExitCode');
    expect(specs.Worker.restartPolicy).toBe('Never');
    expect(specs.Evaluator.restartPolicy).toBe('Always');
    expect(specs.Chief.template.spec.containers[0].resources.limits).toEqual({ memory: '4Gi' });
    expect(specs.PS.template.spec.containers[0].resources.limits).toEqual({ cpu: '2' });
    expect(specs.Worker.template.spec.containers[0].resources.limits).toEqual({ 'nvidia.com/gpu': 1 });
    expect(specs.Worker.template.spec.containers[0].image).toBe('custom:1');
    expect(specs.Worker.template.spec.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('later changes through the groups land in the manifest', () => {
    const job = synthJob({ chief: {}, workers: 2 }, (tf, chart) => {
      tf.worker!.scale(4);
      tf.addEnv('MODEL_DIR', kplus.EnvValue.fromValue('/models'));
      tf.chief!.addContainer({ name: 'logger', image: 'busybox:1.36' });
      tf.mount('/data', kplus.Volume.fromEmptyDir(chart, 'Data', 'data'));
    });
    const specs = job.spec.tfReplicaSpecs;
    expect(specs.Worker.replicas).toBe(4);
    expect(specs.Chief.template.spec.containers.map((c: any) => c.name)).toEqual(['tensorflow', 'logger']);
    for (const role of ['Chief', 'Worker']) {
      expect(specs[role].template.spec.containers[0].env).toEqual([{ name: 'MODEL_DIR', value: '/models' }]);
      expect(specs[role].template.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/data', name: 'data' }]);
    }
  });
});

describe('job-level fields', () => {
  test('successPolicy: DEFAULT is left out, ALL_WORKERS is written', () => {
    expect(synthJob({ successPolicy: SuccessPolicy.DEFAULT }).spec.successPolicy).toBeUndefined();
    expect(synthJob({ successPolicy: SuccessPolicy.ALL_WORKERS, workers: 3 }).spec.successPolicy).toBe('AllWorkers');
  });

  test('enableDynamicWorker is written only when switched on', () => {
    expect(synthJob({ enableDynamicWorker: true, parameterServers: 1 }).spec.enableDynamicWorker).toBe(true);
    expect(synthJob({ enableDynamicWorker: false }).spec.enableDynamicWorker).toBeUndefined();
  });

  test('parameter servers and evaluators are cleaned up when the job ends, unless the run policy says otherwise', () => {
    expect(synthJob({ parameterServers: 1 }).spec.runPolicy).toEqual({ cleanPodPolicy: 'Running' });
    expect(synthJob({ evaluator: {} }).spec.runPolicy).toEqual({ cleanPodPolicy: 'Running' });
    expect(synthJob({ parameterServers: 1, runPolicy: { cleanPodPolicy: CleanPodPolicy.NONE, backoffLimit: 2 } }).spec.runPolicy)
      .toEqual({ cleanPodPolicy: 'None', backoffLimit: 2 });
    expect(synthJob({ parameterServers: 1, runPolicy: { backoffLimit: 2 } }).spec.runPolicy).toEqual({ cleanPodPolicy: 'Running', backoffLimit: 2 });
    expect(synthJob({ chief: {}, workers: 2 }).spec.runPolicy).toBeUndefined();
  });
});

describe('validation', () => {
  test('impossible values fail at once, naming the construct, the field, the value and what is allowed', () => {
    expect(bad({ chief: {}, master: {} })).toThrow('test/job: master is "set"; expected no master together with chief: a TFJob has at most one Chief or Master');
    expect(bad({ workers: 0 })).toThrow('test/job: workers is 0; expected at least 1 when there is no chief or master: the Chief, else worker 0, decides when the job succeeds');
    expect(bad({ workers: -1 })).toThrow(`test/job: workers is -1; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(bad({ parameterServers: 1.5 })).toThrow(`test/job: parameterServers is 1.5; ${WHOLE_NUMBER_0_OR_MORE}`);
    expect(bad({ chief: {}, workers: 0, worker: { image: 'x' } })).toThrow('test/job: worker is "set"; expected no worker options when workers is 0');
    expect(bad({ parameterServer: { image: 'x' } })).toThrow('test/job: parameterServer is "set"; expected no parameter server options when parameterServers is 0');
    expect(bad({ chief: {}, workers: 0, successPolicy: SuccessPolicy.ALL_WORKERS }))
      .toThrow('test/job: successPolicy is "AllWorkers"; expected SuccessPolicy.DEFAULT when workers is 0; AllWorkers waits for workers the job does not have');
    expect(() => new ParameterServerTF(new Chart(Testing.app(), 'test'), 'job', { chief: { image: IMAGE } }))
      .toThrow('test/job/Worker: image is not set; expected a container image for the main container');
  });

  test('TF_CONFIG belongs to the operator', () => {
    expect(synthErrors(chart => new ParameterServerTF(chart, 'job', {
      metadata: { name: 'train' }, image: IMAGE, chief: {}, worker: { env: { TF_CONFIG: kplus.EnvValue.fromValue('{}') } },
    }))).toBe(REPORT +
      `  [test/job] spec.tfReplicaSpecs.Worker.template.spec.containers[tensorflow].env[TF_CONFIG] (worker.env) is {"name":"TF_CONFIG","value":"{}"}; ${INJECTED_ENV}`);
  });

  test('a sidecar may set TF_CONFIG: the operator writes it into the tensorflow container only', () => {
    const job = synthKind('TFJob', chart => {
      new ParameterServerTF(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, chief: {} }).worker!.addContainer({
        name: 'exporter', image: 'busybox:1.36', envVariables: { TF_CONFIG: kplus.EnvValue.fromValue('{}') },
      });
    });
    expect(job.spec.tfReplicaSpecs.Worker.template.spec.containers[1].env).toEqual([{ name: 'TF_CONFIG', value: '{}' }]);
  });

  test('counts are held to the replica type\'s rule when scaled', () => {
    const job = new ParameterServerTF(new Chart(Testing.app(), 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE, chief: {}, evaluator: {} });
    expect(() => job.chief!.scale(2)).toThrow('test/job/Chief: replicas is 2; expected 1: a TFJob has exactly one Chief when chief is set');
    expect(() => job.evaluator!.scale(0)).toThrow('test/job/Evaluator: replicas is 0; expected 1: a TFJob has exactly one Evaluator when evaluator is set');
    job.worker!.scale(0); // the Chief decides success, so a job of Chief alone is fine
    const plain = new ParameterServerTF(new Chart(Testing.app(), 'test'), 'job', { metadata: { name: 'train' }, image: IMAGE });
    expect(() => plain.worker!.scale(0)).toThrow('test/job/Worker: replicas is 0; expected at least 1 when there is no chief or master: the Chief, else worker 0, decides when the job succeeds');
  });

  test('a success policy that waits for workers scaled away fails at synth time', () => {
    expect(synthErrors(chart => {
      const job = new ParameterServerTF(chart, 'job', { metadata: { name: 'train' }, image: IMAGE, chief: {}, successPolicy: SuccessPolicy.ALL_WORKERS });
      job.worker!.scale(0);
    })).toBe(REPORT +
      '  [test/job] successPolicy is "AllWorkers"; expected SuccessPolicy.DEFAULT when workers is 0; AllWorkers waits for workers the job does not have');
  });

  test('a name too long for the pod names fails at synth time', () => {
    const long = 'a'.repeat(55);
    expect(synthErrors(chart => new ParameterServerTF(chart, 'job', { metadata: { name: long }, image: IMAGE, workers: 10 }))).toBe(
      REPORT +
      `  [test/job] metadata.name is "${long}"; expected a name of at most 54 characters, so that the pod and service name "${long}-worker-9" fits in 63`);
  });
});
