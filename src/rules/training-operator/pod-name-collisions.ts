/**
 * The training operator names each replica's pod and service `<job>-<replica type in lower
 * case>-<index>` (training-operator pkg/common/util GenGeneralName), whatever the job's kind. Two
 * jobs in one namespace whose names meet (a PyTorchJob and a TFJob both called "a" both make
 * a-worker-0; job "a-worker" with a Master and job "a" with a "Worker-master" type) fight over
 * the same pods and services.
 *
 * Every replica type with at least one replica has index 0, so two jobs collide exactly when they
 * share a `<job>-<type>` prefix: names are compared by prefix, not listed, and large replica counts
 * cost nothing.
 */
import { AppDocument, AppFinding, labelOf, namespaceOf, showNamespace } from '../app-document';
import { Rule } from '../rule';
import { trainingKindOf } from './training-kinds';

export const POD_NAME_COLLISION = new Rule('training-operator', 'training-operator/pod-name-collision', 'app',
  'training-operator pkg/common/util GenGeneralName: pods and services <job>-<replica type lower-cased>-<index>',
  'two jobs of one namespace do not produce the same pod or Service name');

interface Replicas {
  readonly doc: AppDocument;
  readonly prefix: string;
}

export function podNameCollisions(docs: readonly AppDocument[], out: AppFinding[]): void {
  const byNamespace = new Map<string, Map<string, Replicas[]>>();
  for (const d of docs) {
    const doc = d.doc;
    const key = trainingKindOf(doc)?.replicaKey;
    const name = doc?.metadata?.name;
    const specs = doc?.spec?.[key ?? ''];
    if (key === undefined || typeof name !== 'string' || typeof specs !== 'object' || specs === null) continue;
    const ns = namespaceOf(doc);
    let prefixes = byNamespace.get(ns);
    if (prefixes === undefined) byNamespace.set(ns, prefixes = new Map());
    let reported = false;
    for (const type of Object.keys(specs)) {
      const replicas = specs[type]?.replicas;
      // The operator defaults replicas to 1.
      const count = replicas === undefined ? 1 : replicas;
      if (!Number.isInteger(count) || count <= 0) continue;
      const prefix = `${name}-${type.toLowerCase()}`;
      const entries = prefixes.get(prefix) ?? [];
      // The same kind and name is one object twice: kubernetes/duplicate-object reports it.
      const other = entries.find(e => e.doc !== d && !(e.doc.doc.kind === doc.kind && e.doc.doc.metadata.name === name));
      if (other !== undefined && !reported) {
        reported = true;
        const o = other.doc.doc;
        out.push({
          path: d.path,
          finding: {
            field: 'metadata.name',
            value: name,
            rule: POD_NAME_COLLISION.id,
            allowed: `expected a job name whose pod and service names no other training job in ${showNamespace(ns)} uses (${o.kind} "${o.metadata.name}" at ${labelOf(other.doc)} also creates ${prefix}-0)`,
          },
        });
      }
      entries.push({ doc: d, prefix });
      prefixes.set(prefix, entries);
    }
  }
}
