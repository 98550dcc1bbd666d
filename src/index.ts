// The public API: the L2 constructs and the types their props use. Plumbing lives in ./private and
// is not exported (test/public-api.test.ts lists every public name, so a new one is a decision).
export * from './accelerator';
export * from './defaults';
export * from './elastic';
export * from './escape-hatch';
export * from './jax';
export * from './mpi';
export * from './paddle';
export * from './pytorch';
export * from './replica';
export * from './resources';
export * from './run-policy';
export * from './scheduling';
export * from './security';
export * from './tensorflow';
export * from './training-job';
export * from './workspace';
export * from './workspace-activity';
export * from './workspace-kind';
export * from './workspace-options';
export * from './xgboost';

// L1: typed classes generated from the pinned CRDs (see imports/ and scripts/generate-l1.ts).
export * as kubeflow from '../imports/kubeflow';
export * as notebooks from '../imports/notebooks';
export * as trainer from '../imports/trainer';
export * as core from '../imports/core';
