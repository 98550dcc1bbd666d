/**
 * The job-wide policies of a v1 job read back into its construct's props, each with what the
 * construct renders of it: the elastic policy (PyTorch, Paddle), gang scheduling and the run
 * policy (its cleanPodPolicy default included). convert-v1-job.ts compares the rendering with the
 * input.
 */
import { Expr, json, object } from './convert-code';
import { isObject as isMap } from '../../rules/kubernetes/names';

const isCount = (v: unknown, min: number): v is number => Number.isInteger(v) && (v as number) >= min;
const ref = (code: string): Expr => ({ type: 'ref', code, value: undefined });
const CLEAN_POD_POLICIES = ['None', 'Running', 'All'];

/** The elastic prop (`ElasticOptions` for PyTorch, `ElasticBounds` for Paddle) and the elasticPolicy it renders, or undefined when the bounds are not both given. */
export function elasticProps(policy: { [key: string]: any }, pytorch: boolean, imports: Set<string>): { props: Expr; rendered: unknown } | undefined {
  if (!isCount(policy.minReplicas, 1) || !isCount(policy.maxReplicas, policy.minReplicas)) return undefined;
  const props: Array<[string, Expr]> = [['minWorkers', json(policy.minReplicas)], ['maxWorkers', json(policy.maxReplicas)]];
  const rendered: { [key: string]: unknown } = { minReplicas: policy.minReplicas, maxReplicas: policy.maxReplicas };
  if (isCount(policy.maxRestarts, 0)) {
    props.push(['maxRestarts', json(policy.maxRestarts)]);
    rendered.maxRestarts = policy.maxRestarts;
  }
  // Metrics by resource utilization only: their fields are plain in the typed props.
  if (Array.isArray(policy.metrics) && policy.metrics.every(m => isMap(m) && m.type === 'Resource' && Object.keys(m).sort().join() === 'resource,type'
    && Object.keys(m.resource).sort().join() === 'name,target' && Object.keys(m.resource.target).sort().join() === 'averageUtilization,type')) {
    props.push(['metrics', json(policy.metrics)]);
    rendered.metrics = policy.metrics;
  }
  if (pytorch) {
    const backend = policy.rdzvBackend;
    if (typeof backend === 'string' && ['c10d', 'etcd', 'etcd-v2'].includes(backend)) {
      props.push(['rendezvousBackend', ref(`RendezvousBackend.${backend.replace('-', '_').toUpperCase()}`)]);
      imports.add('cdk8s-kubeflow RendezvousBackend');
      rendered.rdzvBackend = backend;
    }
    for (const [field, prop] of [['rdzvHost', 'rendezvousHost'], ['rdzvPort', 'rendezvousPort'], ['rdzvId', 'rendezvousId']]) {
      if (typeof policy[field] === (field === 'rdzvPort' ? 'number' : 'string')) {
        props.push([prop, json(policy[field])]);
        rendered[field] = policy[field];
      }
    }
  }
  return { props: object(props), rendered };
}

/**
 * The `gangScheduling` prop of a job whose pods all name one gang scheduler and whose run policy
 * has a scheduling policy, and what the construct renders of it; undefined otherwise.
 */
export function gangScheduling(policy: unknown, schedulerNames: readonly unknown[], pods: number)
  : { schedulerName: string; props: Expr; rendered: { [key: string]: unknown }; imports: string[] } | undefined {
  const SCHEDULERS: { readonly [name: string]: string } = { 'volcano': 'VOLCANO', 'scheduler-plugins-scheduler': 'SCHEDULER_PLUGINS' };
  const schedulerName = schedulerNames[0];
  if (!isMap(policy) || typeof schedulerName !== 'string' || SCHEDULERS[schedulerName] === undefined || schedulerNames.some(n => n !== schedulerName)) {
    return undefined;
  }
  const imports = ['cdk8s-kubeflow GangScheduler'];
  const props: Array<[string, Expr]> = [['scheduler', ref(`GangScheduler.${SCHEDULERS[schedulerName]}`)]];
  // minAvailable is every pod of the job unless given.
  const rendered: { [key: string]: unknown } = { minAvailable: pods };
  if (isCount(policy.minAvailable, 1) && policy.minAvailable !== pods) {
    props.push(['minAvailable', json(policy.minAvailable)]);
    rendered.minAvailable = policy.minAvailable;
  }
  for (const field of ['queue', 'priorityClass']) {
    if (typeof policy[field] === 'string') {
      props.push([field, json(policy[field])]);
      rendered[field] = policy[field];
    }
  }
  if (isCount(policy.scheduleTimeoutSeconds, 1)) {
    props.push(['scheduleTimeout', ref(`Duration.seconds(${policy.scheduleTimeoutSeconds})`)]);
    imports.push('cdk8s Duration');
    rendered.scheduleTimeoutSeconds = policy.scheduleTimeoutSeconds;
  }
  return { schedulerName, props: object(props), rendered, imports };
}

/** The runPolicy prop for the fields it says, and what the construct renders (its own cleanPodPolicy default included). */
export function runPolicyProps(runPolicy: unknown, cleansRunningPods: boolean, imports: Set<string>)
  : { props: Array<[string, Expr]>; rendered: { [key: string]: unknown } } {
  const given = isMap(runPolicy) ? runPolicy : {};
  const props: Array<[string, Expr]> = [];
  const rendered: { [key: string]: unknown } = {};
  const clean = CLEAN_POD_POLICIES.includes(given.cleanPodPolicy) ? given.cleanPodPolicy as string : undefined;
  // An input without the field is the operator's None, which the construct writes when it would clean running pods.
  const wanted = clean ?? (cleansRunningPods ? 'None' : undefined);
  if (wanted !== undefined && !(cleansRunningPods && wanted === 'Running')) {
    props.push(['cleanPodPolicy', ref(`CleanPodPolicy.${wanted.toUpperCase()}`)]);
    imports.add('cdk8s-kubeflow CleanPodPolicy');
  }
  const cleanRendered = wanted ?? (cleansRunningPods ? 'Running' : undefined);
  if (cleanRendered !== undefined) rendered.cleanPodPolicy = cleanRendered;
  for (const [field, prop, min] of [['ttlSecondsAfterFinished', 'ttlAfterFinished', 0], ['activeDeadlineSeconds', 'activeDeadline', 1]] as const) {
    if (isCount(given[field], min)) {
      props.push([prop, ref(`Duration.seconds(${given[field]})`)]);
      imports.add('cdk8s Duration');
      rendered[field] = given[field];
    }
  }
  if (isCount(given.backoffLimit, 0)) {
    props.push(['backoffLimit', json(given.backoffLimit)]);
    rendered.backoffLimit = given.backoffLimit;
  }
  if (typeof given.suspend === 'boolean') {
    props.push(['suspend', json(given.suspend)]);
    rendered.suspend = given.suspend;
  }
  return { props, rendered };
}
