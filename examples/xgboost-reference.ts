import { App, Chart, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { CleanPodPolicy, DistributedXGBoost } from '../src';

/** The reference XGBoostJob: one Master (the Rabit tracker) and three workers, on CPUs. */
export default function (app: App): void {
  const chart = new Chart(app, 'xgboost-reference', { namespace: 'training' });
  new DistributedXGBoost(chart, 'iris', {
    metadata: { name: 'xgboost-iris' },
    image: 'ghcr.io/kubeflow/training-v1/xgboost-dist-iris:latest',
    args: [
      '--job_type=Train',
      '--xgboost_parameter=objective:multi:softprob,num_class:3',
      '--n_estimators=10',
      '--learning_rate=0.1',
    ],
    workers: 3,
    resources: { cpu: kplus.Cpu.units(2), memory: Size.gibibytes(4) },
    runPolicy: { cleanPodPolicy: CleanPodPolicy.RUNNING },
  });
}
