/**
 * Broken documents, one or more per rule family of `lint`, each small enough to read: a valid job
 * of each kind and the one change that breaks it.
 */
import * as yaml from 'js-yaml';

const IMAGE = 'registry.example/train:1.0';

/** A replica spec whose pod has one container. */
export function replica(replicas: number, container: { [field: string]: unknown } = {}): any {
  return { replicas, template: { spec: { containers: [{ name: 'pytorch', image: IMAGE, ...container }] } } };
}

/** A training job document. */
export function job(kind: string, key: string, specs: { [type: string]: any }, spec: { [field: string]: unknown } = {}, name = 'train'): any {
  return { apiVersion: 'kubeflow.org/v1', kind, metadata: { name, namespace: 'ml' }, spec: { ...spec, [key]: specs } };
}

export const pytorch = (specs: { [type: string]: any }, spec: { [field: string]: unknown } = {}, name?: string) =>
  job('PyTorchJob', 'pytorchReplicaSpecs', specs, spec, name);

/** An MPIJob; `launcher` goes into the launcher's container, `launcherPod` into its pod spec. */
export function mpi(
  launcher: { [field: string]: unknown }, workers: number, spec: { [field: string]: unknown } = {}, name?: string,
  launcherPod: { [field: string]: unknown } = {},
): any {
  return job('MPIJob', 'mpiReplicaSpecs', {
    Launcher: { replicas: 1, template: { spec: { ...launcherPod, containers: [{ name: 'mpi', image: IMAGE, ...launcher }] } } },
    Worker: { replicas: workers, template: { spec: { containers: [{ name: 'mpi', image: IMAGE }] } } },
  }, { mainContainer: 'mpi', ...spec }, name);
}

/** Documents as one YAML stream. */
export function stream(...docs: unknown[]): string {
  return docs.map(d => yaml.dump(d, { noRefs: true, lineWidth: -1 })).join('---\n');
}

/** The valid PyTorchJob every PyTorch case starts from. */
export const STATIC_PYTORCH = () => pytorch({ Master: replica(1), Worker: replica(2) });
