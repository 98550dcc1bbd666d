/**
 * The versions of the upstreams a cluster runs: a target. Set it with
 * `PlatformDefaults.set(scope, { target })`, with the context key `cdk8s-kubeflow/target` (an
 * object like this one, or the text `kueue=v0.19,trainer=v2.3`), or `lint --target`/`plan --target`.
 *
 * Without a target the library writes what every version of its support window (docs/versions.md)
 * accepts and runs the same way, and refuses what versions of the window disagree on; a target
 * narrows the window to the versions named, so the rules of versions outside it say nothing.
 * A version is a release (`v0.19.2`) or a whole line (`v0.19`, every v0.19.x); it must lie in the
 * support window.
 */
export interface TargetVersions {
  /**
   * The Kubernetes version, such as `1.35`.
   * @default - the whole window: 1.34 to 1.35
   */
  readonly kubernetes?: string;
  /**
   * The Kubeflow Training Operator (v1) version, such as `v1.9.4`.
   * @default - the whole window: v1.9.0 to v1.9.4
   */
  readonly trainingOperator?: string;
  /**
   * The JobSet version, such as `v0.12`.
   * @default - the whole window: v0.11.1 to v0.12.0
   */
  readonly jobset?: string;
  /**
   * The Kubeflow Trainer (v2) version, such as `v2.3`.
   * @default - the whole window: v2.2.0 to v2.4.0
   */
  readonly trainer?: string;
  /**
   * The Kubeflow Notebooks v2 commit, `8b61057`.
   * @default - the whole window: 8b61057
   */
  readonly notebooks?: string;
  /**
   * The Kueue version, such as `v0.19`.
   * @default - the whole window: v0.15.2 to v0.20
   */
  readonly kueue?: string;
}
