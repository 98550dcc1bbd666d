// The public API: the L2 constructs and the types their props use. Plumbing lives in ./private and
// is not exported (test/public-api.test.ts lists every public name, so a new one is a decision).
export * from './accelerator';
export * from './defaults';
export * from './elastic';
export * from './escape-hatch';
export * from './jax';
export * from './mpi';
export * from './operator-config';
export * from './networking';
export * from './node-health';
export * from './paddle';
export * from './pytorch';
export * from './replica';
export * from './resources';
export * from './run-policy';
export * from './scheduling';
export * from './security';
export * from './tensorflow';
export * from './topology';
export * from './training-job';
export * from './workspace';
export * from './workspace-activity';
export * from './workspace-kind';
export * from './workspace-options';
export * from './xgboost';

// Kubeflow Trainer v2: runtimes for platform teams, TrainJobs for data scientists.
export * from './trainer/cluster-training-runtime';
export * from './trainer/initializer-step';
export * from './trainer/ml-policy';
export * from './trainer/pod-group-policy';
export * from './trainer/train-job';
export * from './trainer/train-job-initializer';
export * from './trainer/training-runtime';
export * from './trainer/training-runtime-base';
export * from './trainer/training-runtime-ref';

// Runtime type checks at the jsii boundary, installed on the classes exported above (see the
// module): the package's own exports are the list of classes to guard.
import { guardExports } from './private/boundary/install';
guardExports(exports);

// L1: typed classes generated from the pinned CRDs (see imports/ and scripts/generate-l1.ts).
export * as kubeflow from '../imports/kubeflow';
export * as notebooks from '../imports/notebooks';
export * as trainer from '../imports/trainer';
export * as core from '../imports/core';
