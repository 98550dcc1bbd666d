/**
 * Installs the boundary checks on the library's classes, once: every class the jsii assembly
 * lists is registered (so `instanceof` can be tested against it), and its public methods and static
 * factories are wrapped to check their arguments against the table before they run. Constructors
 * cannot be wrapped without replacing the exported classes, so each construct calls
 * `checkConstructor` itself, right after `super()`.
 *
 * src/index.ts imports this module for its effect; check.ts loads it on first use for callers that
 * imported a single module directly. It imports the modules, never the other way round, so there
 * is no import cycle. The wrappers load check.ts on their first call, so that requiring the library
 * reads only the table of classes (see ../lazy.ts).
 */
import type { Where } from './check';
import { CLASSES } from './schema.generated';
import * as accelerator from '../common/accelerator';
import * as defaults from '../common/defaults';
import * as escapeHatch from '../common/escape-hatch';
import * as kubeflowResource from '../common/kubeflow-resource';
import * as networking from '../common/networking';
import * as nodeHealth from '../common/node-health';
import * as replica from '../common/replica';
import * as runPolicy from '../common/run-policy';
import * as scheduling from '../common/scheduling';
import * as security from '../common/security';
import * as topology from '../common/topology';
import * as workspace from '../notebooks/workspace';
import * as workspaceActivity from '../notebooks/workspace-activity';
import * as workspaceKind from '../notebooks/workspace-kind';
import * as workspaceOptions from '../notebooks/workspace-options';
import * as clusterTrainingRuntime from '../trainer/cluster-training-runtime';
import * as initializerStep from '../trainer/initializer-step';
import * as mlPolicy from '../trainer/ml-policy';
import * as podGroupPolicy from '../trainer/pod-group-policy';
import * as trainJob from '../trainer/train-job';
import * as trainJobInitializer from '../trainer/train-job-initializer';
import * as trainingRuntime from '../trainer/training-runtime';
import * as trainingRuntimeBase from '../trainer/training-runtime-base';
import * as trainingRuntimeRef from '../trainer/training-runtime-ref';
import * as elastic from '../training/elastic';
import * as jax from '../training/jax';
import * as mpi from '../training/mpi';
import * as operatorConfig from '../training/operator-config';
import * as paddle from '../training/paddle';
import * as pytorch from '../training/pytorch';
import * as tensorflow from '../training/tensorflow';
import * as trainingJob from '../training/training-job';
import * as xgboost from '../training/xgboost';
import { lazy } from '../util/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const check = lazy(() => require('./check') as typeof import('./check'));

const MODULES = [
  accelerator, defaults, elastic, escapeHatch, jax, mpi, networking, nodeHealth, operatorConfig, paddle, pytorch, replica, runPolicy,
  scheduling, security, tensorflow, topology, trainingJob, workspace, workspaceActivity, workspaceKind, workspaceOptions, xgboost,
  clusterTrainingRuntime, initializerStep, mlPolicy, podGroupPolicy, trainJob, trainJobInitializer, trainingRuntime, trainingRuntimeBase,
  trainingRuntimeRef, kubeflowResource,
];

const GUARDED = Symbol.for('cdk8s-kubeflow.boundary.guarded');

/** The classes that were installed, by name (for tests that count what is covered). */
export const INSTALLED = new Map<string, Function>();

for (const mod of MODULES) {
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value === 'function' && CLASSES[name] && !INSTALLED.has(name)) guardClass(value);
  }
}

/** Registers a class and wraps its methods and static factories with argument checks. */
function guardClass(cls: Function): void {
  INSTALLED.set(cls.name, cls);
  const entry = CLASSES[cls.name];
  for (const method of Object.keys(entry.methods ?? {})) wrap(cls, cls.prototype, method, false);
  for (const method of Object.keys(entry.statics ?? {})) wrap(cls, cls, method, true);
}

function wrap(cls: Function, owner: any, method: string, isStatic: boolean): void {
  const original = owner[method];
  const entry = CLASSES[cls.name];
  const specs = isStatic ? entry.statics?.[method] : entry.methods?.[method];
  if (typeof original !== 'function' || original[GUARDED] || !specs || specs.length === 0) return;
  const label = `${cls.name}.${method}`;
  const params = lazy(() => check().methodParams(cls.name, method, isStatic) ?? []);
  const guarded = function (this: any, ...args: unknown[]) {
    // The construct's path when there is one (an instance method of a construct, or a static
    // method that takes a scope first), else the method's name.
    const where: Where = isConstruct(this) ? this : isStatic && isConstruct(args[0]) ? args[0] : label;
    const ps = params();
    check().checkArgs(where, ps, args);
    // jsii passes an omitted optional argument as undefined; a null from JavaScript would skip
    // the method's default value, so it is passed the same way.
    for (let i = 0; i < ps.length && i < args.length; i++) if (args[i] === null && ps[i].optional) args[i] = undefined;
    return original.apply(this, args);
  };
  Object.defineProperty(guarded, 'name', { value: method });
  Object.defineProperty(guarded, GUARDED, { value: true });
  Object.defineProperty(owner, method, { value: guarded, writable: true, configurable: true, enumerable: false });
}

/** A construct (its path is worked out only for a message, as it walks the tree). */
function isConstruct(value: any): value is Where {
  return typeof value === 'object' && value !== null && typeof value.node === 'object' && value.node !== null && 'scope' in value.node;
}
