/** Kubeflow Trainer v2's kinds (trainer.kubeflow.org/v1alpha1). */
import { KindFacts } from './kind';

const TRAINER = { family: 'trainer', group: 'trainer.kubeflow.org', versions: ['v1alpha1'] } as const;

export const TRAIN_JOB: KindFacts = {
  ...TRAINER,
  kind: 'TrainJob',
  namespaced: true,
  l1: { module: 'trainer', className: 'TrainJob' },
  l2: 'TrainJob',
  // Kueue v0.15.2 pkg/controller/jobs/trainjob: the JobSet the Trainer builds from the runtime.
  kueue: { podSets: 'replicated-jobs' },
};

export const TRAINING_RUNTIME: KindFacts = {
  ...TRAINER,
  kind: 'TrainingRuntime',
  namespaced: true,
  l1: { module: 'trainer', className: 'TrainingRuntime' },
  l2: 'TrainingRuntime',
};

export const CLUSTER_TRAINING_RUNTIME: KindFacts = {
  ...TRAINER,
  kind: 'ClusterTrainingRuntime',
  namespaced: false,
  l1: { module: 'trainer', className: 'ClusterTrainingRuntime' },
  l2: 'ClusterTrainingRuntime',
};

/** The Trainer's kinds, in the order the document rules list them. */
export const TRAINER_KINDS: readonly KindFacts[] = [TRAINING_RUNTIME, CLUSTER_TRAINING_RUNTIME, TRAIN_JOB];
