/**
 * Kubernetes-level faults: values the library passes through to metadata and pod templates that
 * the API server (or the kubelet) refuses. Each fault is data (so fast-check can print it) plus
 * what it does to a valid configuration: a training job (through the jobs' `FaultEffect`) or a
 * WorkspaceKind (through `buildKind`'s `change`).
 *
 * The values are chosen against the rules in k8s.io/kubernetes pkg/apis/core/validation and
 * k8s.io/apimachinery pkg/util/validation at 1.34 (named per fault below). Some are on purpose
 * values the API server accepts but the kubelet or container runtime refuses (a relative working
 * directory), so that the differential run shows where the library is stricter than the API server.
 */
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { FaultEffect } from './job-arbitraries';
import { WorkspaceKindProps } from '../../src';

const SIDECAR_IMAGE = 'busybox:1.36';

/** Label keys: a name part of at most 63 characters, an optional DNS-subdomain prefix (IsQualifiedName). */
export const badLabelKey = fc.constantFrom('team name', 'a/b/c', '-lead', 'x'.repeat(64), 'example.com/', 'Über', 'UPPER_/x', 'a..b/c');
/** Label values: empty or up to 63 characters of [A-Za-z0-9-_.], alphanumeric at both ends (IsValidLabelValue). */
export const badLabelValue = fc.constantFrom('ml team', 'x'.repeat(64), 'a/b', '-a', 'a-', 'ü', 'a:b');
/**
 * Env names: with RelaxedEnvironmentVariableValidation (on by default in 1.34) any printable ASCII
 * but "=" (IsRelaxedEnvVarName); `1ABC` and `my-var` pass it, and are here to show whether the
 * library follows the relaxed rule or the older C-identifier one.
 */
export const badEnvName = fc.constantFrom('A=B', 'LR=0.1', 'TAB\tNAME', 'ÄPFEL', '1ABC', 'my-var');
/** Container port names: IANA service names, at most 15 characters, a letter, no "--" (IsValidPortName). */
export const badPortName = fc.constantFrom('metrics-port-long', 'UPPER', 'a--b', '9090', 'has_underscore', '-a');
/** Volume names: DNS-1123 labels (ValidateVolumes); none too long, cdk8s-plus cuts names to 63 characters. */
export const badVolumeName = fc.constantFrom('Data', 'data_1', 'a.b', 'a b');
/** Node selector keys: label keys (ValidatePodSpec, nodeSelector through ValidateLabels). */
export const badNodeSelectorKey = fc.constantFrom('gpu type', 'a/b/c', '-x', 'x'.repeat(64));
/** Priority class names: DNS subdomains (ValidatePodSpec, priorityClassName). */
export const badPriorityClass = fc.constantFrom('High_Priority', 'UPPER', 'a..b', '-a', 'x'.repeat(254));
/** Images: no leading or trailing whitespace (validateContainerCommon, image). */
export const badImage = fc.constantFrom(' registry.example.com/train:1.0', 'registry.example.com/train:1.0 ', '\tregistry.example.com/train:1.0');
/** subPath: relative, without ".." (validateLocalDescendingPath). */
export const badSubPath = fc.constantFrom('../x', 'a/../../b', '/abs', '..');
/**
 * Relative mount paths: the API server accepts them and the kubelet makes them absolute (makeMounts),
 * so they are no fault in a pod; a WorkspaceKind's home path must be absolute (its CRD's pattern).
 */
export const relativeMountPath = fc.constantFrom('data', './data', 'mnt/cache');
/** Working directories the API server accepts but runc refuses (validateProcessSpec): relative ones. */
export const relativeWorkingDir = fc.constantFrom('workspace', './src', 'home/user');
/** Namespaces: DNS-1123 labels (ValidateObjectMeta with ValidateNamespaceName). */
export const badNamespace = fc.constantFrom('ML_Team', 'team.a', 'x'.repeat(64), '-a');
/** Annotation keys: qualified names like label keys (ValidateAnnotations). */
export const badAnnotationKey = fc.constantFrom('note text', 'a/b/c', '-x');
/** Tolerations the API server refuses (validateTolerations). */
export const badToleration = fc.constantFrom(
  { key: 'dedicated', operator: 'Exists', value: 'gpu', effect: 'NoSchedule' },
  { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedul' },
  { key: 'bad key', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
  { key: 'dedicated', operator: 'Equal', value: 'has space', effect: 'NoSchedule' },
  { key: 'dedicated', operator: 'In', value: 'gpu', effect: 'NoSchedule' },
);

/** A Kubernetes-level fault of a training job, as data. */
export const jobK8sFault = fc.oneof(
  fc.record({ fault: fc.constant('label key' as const), key: badLabelKey, onPod: fc.boolean() }),
  fc.record({ fault: fc.constant('label value' as const), value: badLabelValue, onPod: fc.boolean() }),
  fc.record({ fault: fc.constant('annotation key' as const), key: badAnnotationKey }),
  fc.record({ fault: fc.constant('namespace' as const), namespace: badNamespace }),
  fc.record({ fault: fc.constant('env name' as const), name: badEnvName, how: fc.constantFrom('job', 'role', 'addEnv') }),
  fc.record({ fault: fc.constant('port name' as const), name: badPortName }),
  fc.record({ fault: fc.constant('volume name' as const), name: badVolumeName }),
  fc.record({ fault: fc.constant('toleration' as const), toleration: badToleration }),
  fc.record({ fault: fc.constant('node selector key' as const), key: badNodeSelectorKey }),
  fc.record({ fault: fc.constant('priority class' as const), name: badPriorityClass }),
  fc.record({ fault: fc.constant('image whitespace' as const), image: badImage }),
  fc.record({ fault: fc.constant('subPath' as const), subPath: badSubPath }),
  fc.record({ fault: fc.constant('relative working directory' as const), path: relativeWorkingDir }),
);
export type JobK8sFault = typeof jobK8sFault extends fc.Arbitrary<infer T> ? T : never;

/** What a Kubernetes-level fault does to a training job. */
export function jobK8sEffect(f: JobK8sFault): FaultEffect {
  const value = kplus.EnvValue.fromValue('1');
  switch (f.fault) {
    case 'label key': return f.onPod
      ? { role: o => ({ ...o, podLabels: { ...o.podLabels, [f.key]: 'x' } }) }
      : { job: p => ({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata?.labels, [f.key]: 'x' } } }) };
    case 'label value': return f.onPod
      ? { role: o => ({ ...o, podLabels: { ...o.podLabels, team: f.value } }) }
      : { job: p => ({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata?.labels, team: f.value } } }) };
    case 'annotation key': return { job: p => ({ ...p, metadata: { ...p.metadata, annotations: { ...p.metadata?.annotations, [f.key]: 'x' } } }) };
    case 'namespace': return { job: p => ({ ...p, metadata: { ...p.metadata, namespace: f.namespace } }) };
    case 'env name':
      switch (f.how) {
        case 'job': return { job: p => ({ ...p, env: { ...p.env, [f.name]: value } }) };
        case 'role': return { role: o => ({ ...o, env: { ...o.env, [f.name]: value } }) };
        default: return { after: job => job.addEnv(f.name, value) };
      }
    case 'port name': return {
      after: job => {
        job.replicaGroups[job.replicaGroups.length - 1].addContainer({ name: 'metrics', image: SIDECAR_IMAGE, ports: [{ number: 9090, name: f.name }] });
      },
    };
    case 'volume name': return {
      after: (job, chart) => job.mount('/fault', kplus.Volume.fromEmptyDir(chart, 'fault-volume', f.name)),
    };
    case 'toleration': return { role: o => ({ ...o, tolerations: [...(o.tolerations ?? []), f.toleration] }) };
    case 'node selector key': return { role: o => ({ ...o, nodeSelector: { ...o.nodeSelector, [f.key]: 'x' } }) };
    case 'priority class': return { role: o => ({ ...o, priorityClassName: f.name }) };
    case 'image whitespace': return { job: p => ({ ...p, image: f.image }), everyRole: o => ({ ...o, image: undefined }) };
    case 'subPath': return {
      after: (job, chart) => job.mount('/fault', kplus.Volume.fromEmptyDir(chart, 'fault-volume', 'fault'), { subPath: f.subPath }),
    };
    default: return { role: o => ({ ...o, workingDir: f.path }) };
  }
}

/** A Kubernetes-level fault of a WorkspaceKind, as data. */
export const kindK8sFault = fc.oneof(
  fc.record({ fault: fc.constant('pod label key' as const), key: badLabelKey }),
  fc.record({ fault: fc.constant('pod label value' as const), value: badLabelValue }),
  fc.record({ fault: fc.constant('pod annotation key' as const), key: badAnnotationKey }),
  fc.record({ fault: fc.constant('env name' as const), name: badEnvName }),
  fc.record({ fault: fc.constant('relative home mount path' as const), path: relativeMountPath }),
);
export type KindK8sFault = typeof kindK8sFault extends fc.Arbitrary<infer T> ? T : never;

/** What a Kubernetes-level fault does to a WorkspaceKind's props. */
export function kindK8sEffect(f: KindK8sFault): (p: WorkspaceKindProps) => WorkspaceKindProps {
  switch (f.fault) {
    case 'pod label key': return p => ({ ...p, podLabels: { ...p.podLabels, [f.key]: 'x' } });
    case 'pod label value': return p => ({ ...p, podLabels: { ...p.podLabels, team: f.value } });
    case 'pod annotation key': return p => ({ ...p, podAnnotations: { ...p.podAnnotations, [f.key]: 'x' } });
    case 'env name': return p => ({ ...p, env: { ...p.env, [f.name]: kplus.EnvValue.fromValue('1') } });
    default: return p => ({ ...p, homeMountPath: f.path });
  }
}
