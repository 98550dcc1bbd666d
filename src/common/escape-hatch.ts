import { ApiObject } from 'cdk8s';
import { allowField } from '../synth/allowed-fields';
import { userError } from '../util/user-error';

/**
 * Escape hatches beyond the pinned CRDs. A JSON patch on a construct's `apiObject` is applied to the
 * final manifest and the result is validated strictly against the pinned CRD at synth, so a
 * misspelt field fails instead of vanishing. A field that a newer operator knows but the pinned
 * CRD does not is written only when it is allowed here, by its JSON pointer: after
 * `job.apiObject.addJsonPatch(JsonPatch.add('/spec/runPolicy/newField', true))`, call
 * `EscapeHatch.allowUnknownField(job.apiObject, '/spec/runPolicy/newField')`.
 */
export class EscapeHatch {
  /**
   * Lets the manifest of `apiObject` carry a field its pinned CRD does not have, and anything
   * below it.
   *
   * @param apiObject the API object a JSON patch adds the field to (a construct's `apiObject`)
   * @param pointer the field's JSON pointer, such as `/spec/pytorchReplicaSpecs/Worker/template/spec/newField`
   */
  public static allowUnknownField(apiObject: ApiObject, pointer: string): void {
    if (typeof pointer !== 'string' || !pointer.startsWith('/') || pointer.length < 2) {
      throw userError(`${apiObject.node.path}: pointer is ${JSON.stringify(pointer)}; expected a JSON pointer such as "/spec/newField"`);
    }
    allowField(apiObject, fieldPath(pointer));
  }

  private constructor() {}
}

/** `/spec/containers/0/x` as findings write it: `spec.containers[0].x`. */
function fieldPath(pointer: string): string {
  return pointer.slice(1).split('/').map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}
