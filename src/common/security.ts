import { parseKnown } from './internal/parse-value';
/**
 * The security settings written on every pod and container of a construct.
 *
 * `DEFAULT` fits the images training and notebook workloads really use, most of which run as root:
 * it does not force a non-root user, but it turns off privilege escalation and privileged mode,
 * uses no host namespaces and does not mount the service-account token unless a service account is
 * given. `RESTRICTED` meets the Kubernetes "restricted" Pod Security Standard: non-root, the
 * runtime's default seccomp profile, every capability dropped. Pods the operator adds itself (such
 * as PyTorch's `init-pytorch` container) are outside what the manifest controls.
 */
export class PodSecurity {
  /** Works with root images; no escalation, no privileged mode, no host namespaces. */
  public static readonly DEFAULT = new PodSecurity('default');
  /** Meets the "restricted" Pod Security Standard; the image must run as a non-root user. */
  public static readonly RESTRICTED = new PodSecurity('restricted');
  /**
   * The PodSecurity a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the preset's name: `default` or `restricted`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): PodSecurity {
    return parseKnown('PodSecurity.parse', value, key, [['default', PodSecurity.DEFAULT], ['restricted', PodSecurity.RESTRICTED]], 'the security presets');
  }

  /** @param name the preset's name: `default` or `restricted` */
  private constructor(public readonly name: string) {}

  /** Whether this preset meets the "restricted" standard. */
  public get restricted(): boolean {
    return this.name === 'restricted';
  }
}
