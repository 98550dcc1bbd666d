/**
 * Fidelity to the upstream examples: every XGBoostJob, PaddleJob and JAXJob example of the Training
 * Operator is written with the L2 constructs, and every leaf field of the upstream manifest must
 * appear in the synthesized one with the same value (ours may hold more, such as the Istio opt-out).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as yaml from 'js-yaml';
import { UPSTREAM_EXAMPLES } from '../../scripts/upstream/pins';
import { Accelerator, DistributedJax, DistributedPaddle, DistributedXGBoost, RestartPolicy } from '../../src';
import { expectDeterministic, expectValidManifests } from '../harness';
import { missingLeaves, yamlFilesUnder } from '../harness/fidelity';

const UPSTREAM = path.join(UPSTREAM_EXAMPLES, 'training-operator');
const FOLDERS = ['xgboost', 'paddlepaddle', 'jax'];

/** The API version the constructs write; documents of any other version are skipped. */
const API_VERSION = 'kubeflow.org/v1';

const LIGHTGBM_ARGS = [
  '--job_type=Train', '--boosting_type=gbdt', '--objective=binary', '--metric=binary_logloss,auc', '--metric_freq=1',
  '--is_training_metric=true', '--max_bin=255', '--data=data/binary.train', '--valid_data=data/binary.test',
  '--num_trees=100', '--learning_rate=01', '--num_leaves=63', '--tree_learner=feature', '--feature_fraction=0.8',
  '--bagging_freq=5', '--bagging_fraction=0.8', '--min_data_in_leaf=50', '--min_sum_hessian_in_leaf=50',
  '--is_enable_sparse=true', '--use_two_round_loading=false', '--is_save_binary_file=false',
];
const IRIS_IMAGE = 'ghcr.io/kubeflow/training-v1/xgboost-dist-iris:latest';
const IRIS_TRAIN_ARGS = ['--job_type=Train', '--n_estimators=10', '--learning_rate=0.1'];
const PADDLE_ARGS = ['-m', 'paddle.distributed.launch', 'run_check'];

/** The PVC `xgboostlocal`, mounted as the volume `task-pv-storage` at /tmp/xgboost_model. */
function mountLocalModel(chart: Chart, job: DistributedXGBoost): void {
  const claim = kplus.PersistentVolumeClaim.fromClaimName(chart, 'Claim', 'xgboostlocal');
  job.mount('/tmp/xgboost_model', kplus.Volume.fromPersistentVolumeClaim(chart, 'Storage', claim, { name: 'task-pv-storage' }));
}

/** The upstream rabit smoke test: the same in both files but for stale keys (see NOT_WRITTEN). */
function rabitTest(chart: Chart): void {
  new DistributedXGBoost(chart, 'job', {
    metadata: { name: 'xgboost-dist-test' },
    image: 'ghcr.io/kubeflow/training-v1/xgboost-dist-rabit-test:latest',
    imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
    port: 9991,
    workers: 2,
  });
}

/**
 * Each upstream example written with the L2, as a user would write it from the manifest. Keys are
 * paths below `training-operator/`.
 */
const EXPRESSED: { [file: string]: (chart: Chart) => void } = {
  'xgboost/lightgbm-dist/xgboostjob_v1_lightgbm_dist_training.yaml': chart => {
    new DistributedXGBoost(chart, 'job', {
      metadata: { name: 'lightgbm-dist-train-test' },
      image: 'ghcr.io/kubeflow/training-v1/lightgbm-dist-py-test:latest',
      imagePullPolicy: kplus.ImagePullPolicy.NEVER,
      args: LIGHTGBM_ARGS,
      port: 9991,
      workers: 2,
      worker: { restartPolicy: RestartPolicy.EXIT_CODE },
    });
  },
  'xgboost/smoke-dist/xgboostjob_v1_rabit_test.yaml': rabitTest,
  'xgboost/smoke-dist/xgboostjob_v1alpha1_rabit_test.yaml': rabitTest,
  'xgboost/xgboost-dist/xgboostjob_v1_iris_predict.yaml': chart => {
    new DistributedXGBoost(chart, 'job', {
      metadata: { name: 'xgboost-dist-iris-test-predict' },
      image: IRIS_IMAGE,
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      args: ['--job_type=Predict', '--model_path=autoAI/xgb-opt/2', '--model_storage_type=oss', '--oss_param=unknown'],
      port: 9991,
      workers: 2,
      worker: { restartPolicy: RestartPolicy.EXIT_CODE },
    });
  },
  'xgboost/xgboost-dist/xgboostjob_v1_iris_predict_local.yaml': chart => {
    const job = new DistributedXGBoost(chart, 'job', {
      metadata: { name: 'xgboost-dist-iris-test-predict-local' },
      image: IRIS_IMAGE,
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      args: ['--job_type=Predict', '--model_path=/tmp/xgboost_model/2', '--model_storage_type=local'],
      port: 9991,
      workers: 2,
      worker: { restartPolicy: RestartPolicy.EXIT_CODE },
    });
    mountLocalModel(chart, job);
  },
  'xgboost/xgboost-dist/xgboostjob_v1_iris_train.yaml': chart => {
    // The two roles differ upstream: the workers' parameter is quoted and they save no model.
    new DistributedXGBoost(chart, 'job', {
      metadata: { name: 'xgboost-dist-iris-test-train' },
      image: IRIS_IMAGE,
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      port: 9991,
      workers: 2,
      master: {
        args: ['--job_type=Train', '--xgboost_parameter=objective:multi:softprob,num_class:3', '--n_estimators=10',
          '--learning_rate=0.1', '--model_path=/tmp/xgboost-model', '--model_storage_type=local'],
      },
      worker: {
        args: ['--job_type=Train', '--xgboost_parameter="objective:multi:softprob,num_class:3"', '--n_estimators=10', '--learning_rate=0.1'],
        restartPolicy: RestartPolicy.EXIT_CODE,
      },
    });
  },
  'xgboost/xgboost-dist/xgboostjob_v1_iris_train_local.yaml': chart => {
    const local = ['--model_path=/tmp/xgboost_model/2', '--model_storage_type=local'];
    const job = new DistributedXGBoost(chart, 'job', {
      metadata: { name: 'xgboost-dist-iris-test-train-local' },
      image: IRIS_IMAGE,
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      port: 9991,
      workers: 2,
      master: { args: [...IRIS_TRAIN_ARGS.slice(0, 1), '--xgboost_parameter=objective:multi:softprob,num_class:3', ...IRIS_TRAIN_ARGS.slice(1), ...local] },
      worker: {
        args: [...IRIS_TRAIN_ARGS.slice(0, 1), '--xgboost_parameter="objective:multi:softprob,num_class:3"', ...IRIS_TRAIN_ARGS.slice(1), ...local],
        restartPolicy: RestartPolicy.EXIT_CODE,
      },
    });
    mountLocalModel(chart, job);
  },
  'paddlepaddle/simple-cpu.yaml': chart => {
    new DistributedPaddle(chart, 'job', {
      metadata: { name: 'paddle-simple-cpu', namespace: 'kubeflow' },
      image: 'registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu',
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      command: ['python'],
      args: PADDLE_ARGS,
      port: 37777,
      workers: 2,
    });
  },
  'paddlepaddle/simple-gpu.yaml': chart => {
    const job = new DistributedPaddle(chart, 'job', {
      metadata: { name: 'paddle-simple-gpu', namespace: 'kubeflow' },
      image: 'registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-gpu-cuda11.2-cudnn8.1-trt8.0',
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      command: ['python'],
      args: PADDLE_ARGS,
      port: 37777,
      workers: 2,
      resources: { accelerator: Accelerator.nvidia(2) },
    });
    // Upstream's /dev/shm has no size limit. `sharedMemory` (the usual way) would add one, so the
    // same volume is mounted by hand here to keep the meaning identical.
    job.mount('/dev/shm', kplus.Volume.fromEmptyDir(chart, 'Shm', 'dshm', { medium: kplus.EmptyDirMedium.MEMORY }));
  },
  'jax/cpu-demo/demo.yaml': chart => {
    new DistributedJax(chart, 'job', {
      metadata: { name: 'jaxjob-simple', namespace: 'kubeflow' },
      image: 'ghcr.io/kubeflow/training-v1/jaxjob-simple:latest',
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      command: ['python3', 'train.py'],
      workers: 2,
      worker: { restartPolicy: RestartPolicy.ON_FAILURE },
    });
  },
  'jax/jax-dist-spmd-mnist/jaxjob_dist_spmd_mnist_gloo.yaml': chart => {
    new DistributedJax(chart, 'job', {
      metadata: { name: 'jaxjob-mnist', namespace: 'kubeflow' },
      image: 'ghcr.io/kubeflow/training-v1/jaxjob-dist-spmd-mnist:latest',
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      workers: 2,
      worker: { restartPolicy: RestartPolicy.ON_FAILURE },
    });
  },
};

/**
 * Upstream leaves the constructs do not write, each with the reason. The "v1alpha1" rabit test is
 * in fact a `kubeflow.org/v1` document whose pod templates carry stale `apiVersion: v1` and
 * `kind: Pod` keys. PodTemplateSpec has no such fields: the API server prunes them and the strict
 * schema check rejects them, so writing them would be a bug.
 */
const NOT_WRITTEN: { [file: string]: { readonly paths: string[]; readonly reason: string } } = {
  'xgboost/smoke-dist/xgboostjob_v1alpha1_rabit_test.yaml': {
    paths: ['Master', 'Worker'].flatMap(role => ['apiVersion', 'kind'].map(key => `spec.xgbReplicaSpecs.${role}.template.${key}`)),
    reason: 'stale pod-template keys that PodTemplateSpec does not have (pruned by the API server)',
  },
};

const upstreamFiles = () => yamlFilesUnder(UPSTREAM, FOLDERS);

/** A copy of `doc` without the leaves at the given dotted paths. */
function without(doc: any, paths: string[]): any {
  const copy = JSON.parse(JSON.stringify(doc));
  for (const p of paths) {
    const keys = p.split('.');
    const parent = keys.slice(0, -1).reduce((o, k) => o?.[k], copy);
    if (parent) delete parent[keys[keys.length - 1]];
  }
  return copy;
}

test('every upstream XGBoost, Paddle and JAX example has an L2 expression', () => {
  expect(upstreamFiles()).toEqual(Object.keys(EXPRESSED).sort());
});

test.each(Object.keys(EXPRESSED).sort())('%s is expressible with the L2', file => {
  const upstream = yaml.loadAll(fs.readFileSync(path.join(UPSTREAM, file), 'utf8')).filter(d => d !== null && d !== undefined) as any[];
  const docs = expectDeterministic(app => EXPRESSED[file](new Chart(app, 'upstream')));
  expectValidManifests(docs);
  let compared = 0;
  for (const doc of upstream) {
    if (doc.apiVersion !== API_VERSION) {
      console.log(`${file}: skipped a ${doc.apiVersion} ${doc.kind}; the constructs write ${API_VERSION} only`);
      continue;
    }
    const ours = docs.find(d => d.kind === doc.kind && d.metadata?.name === doc.metadata?.name);
    expect(ours).toBeDefined();
    const ignored = NOT_WRITTEN[file];
    // The ignored keys are really there upstream, so the list cannot go stale silently.
    for (const p of ignored?.paths ?? []) expect(p.split('.').reduce((o: any, k) => o?.[k], doc)).toBeDefined();
    expect(missingLeaves(without(doc, ignored?.paths ?? []), ours)).toEqual([]);
    compared++;
  }
  expect(compared).toBeGreaterThan(0);
});
