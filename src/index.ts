// The public API: the L2 constructs and the types their props use. Plumbing lives in the internal
// layers and in each family's internal/ folder, and is not exported (test/package/public-api.test.ts
// lists every public name, so a new one is a decision).
// Only exports belong here, and the one statement at the end that guards them: after jsii,
// scripts/lazy-entry.ts rewrites the compiled entry so that each export loads its module on first
// use and is guarded then.
import { guardExports } from './boundary/install';

export * from './common/accelerator';
export * from './config/config-reader';
export * from './common/defaults';
export * from './training/elastic';
export * from './common/escape-hatch';
export * from './training/jax';
export * from './common/kubeflow-resource';
export * from './common/kueue-references';
export * from './training/mpi';
export * from './training/operator-config';
export * from './common/networking';
export * from './common/node-health';
export * from './common/parse';
export * from './training/paddle';
export * from './training/pytorch';
export * from './common/replica';
export * from './common/replica-options';
export * from './common/resources';
export * from './common/run-policy';
export * from './common/scheduling';
export * from './common/security';
export * from './common/stable-file-names-app';
export * from './common/target';
export * from './training/tensorflow';
export * from './common/topology';
export * from './training/training-job';
export * from './notebooks/workspace';
export * from './notebooks/workspace-activity';
export * from './notebooks/workspace-kind';
export * from './notebooks/workspace-options';
export * from './training/xgboost';

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

// Kueue: the flavors, queues, priority classes and topologies the jobs are admitted through.
export * from './kueue/cluster-queue';
export * from './kueue/cohort';
export * from './kueue/kueue-topology';
export * from './kueue/local-queue';
export * from './kueue/preemption-policy';
export * from './kueue/queueing-strategy';
export * from './kueue/resource-flavor';
export * from './kueue/resource-group';
export * from './kueue/resource-quota';
export * from './kueue/workload-priority-class';

// L1: typed classes generated from the pinned CRDs (see imports/ and scripts/generate-l1.ts).
export * as kubeflow from '../imports/kubeflow';
export * as notebooks from '../imports/notebooks';
export * as trainer from '../imports/trainer';
export * as kueue from '../imports/kueue';
export * as core from '../imports/core';

// The boundary: every class exported above checks its arguments against the table generated from
// the jsii assembly, installed here once for all of them (src/boundary/install.ts).
guardExports(exports);
