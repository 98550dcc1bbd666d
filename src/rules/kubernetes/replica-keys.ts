/**
 * The field of each Kubeflow v1 training job's spec that maps replica types to replica specs
 * (`spec.<key>`, pkg/apis/kubeflow.org/v1 *_types.go of the training operator). Its own module,
 * with no imports, because the job constructs need it when they render while the document rules
 * (documents.ts and the rest of this folder) are loaded only when a synth runs them.
 */
export const TRAINING_JOB_REPLICA_KEYS: Readonly<Record<string, string>> = {
  PyTorchJob: 'pytorchReplicaSpecs',
  TFJob: 'tfReplicaSpecs',
  MPIJob: 'mpiReplicaSpecs',
  XGBoostJob: 'xgbReplicaSpecs',
  PaddleJob: 'paddleReplicaSpecs',
  JAXJob: 'jaxReplicaSpecs',
  MXJob: 'mxReplicaSpecs',
};
