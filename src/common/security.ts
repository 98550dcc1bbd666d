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
  /** @param name the preset's name: `default` or `restricted` */
  private constructor(public readonly name: string) {}

  /** Whether this preset meets the "restricted" standard. */
  public get restricted(): boolean {
    return this.name === 'restricted';
  }
}
