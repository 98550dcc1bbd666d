import { ApiObject } from 'cdk8s';

/** Metadata known only when the app synthesizes (it depends on platform defaults set later). */
export interface LateMetadata {
  readonly labels?: { [key: string]: string };
  readonly annotations?: { [key: string]: string };
}

/**
 * Merges metadata into an API object's manifest when it is rendered. cdk8s resolves lazy values in
 * the body of an object but renders `metadata` eagerly, and platform defaults are looked up at
 * synth time, so the labels they contribute are added here. Labels the object was given
 * explicitly win over the late ones.
 */
export function applyLateMetadata(apiObject: ApiObject, produce: () => LateMetadata): void {
  const render = apiObject.toJson.bind(apiObject);
  apiObject.toJson = () => {
    const json = render();
    const late = produce();
    const metadata = { ...(json.metadata ?? {}) };
    if (late.labels) metadata.labels = sorted({ ...late.labels, ...(metadata.labels ?? {}) });
    if (late.annotations) metadata.annotations = sorted({ ...late.annotations, ...(metadata.annotations ?? {}) });
    return { ...json, metadata };
  };
}

function sorted(map: { [key: string]: string }): { [key: string]: string } {
  return Object.fromEntries(Object.keys(map).sort().map(k => [k, map[k]]));
}
