/**
 * The support window: for each upstream the library writes for or checks against, the oldest and
 * the newest version its output is meant to work on, and for each version we know, how we know it.
 * This table is the one home of these facts: targets are checked against it (target.ts), rules name
 * versions inside it (target.ts `RuleVersions`, a rule's `versions`), and docs/versions.md is generated from it
 * (scripts/versions-page.ts; a test fails when the page is stale).
 *
 * Without a target, what the library writes must be accepted and behave the same on every version
 * of every window; a target narrows a window to the versions a cluster runs.
 */

/** An upstream, by the key a target names it with (`TargetVersions`, `--target kueue=v0.19`). */
export type UpstreamId = 'kubernetes' | 'trainingOperator' | 'jobset' | 'trainer' | 'notebooks' | 'kueue';

/**
 * How a version is known:
 * - `code`: its own validation code runs on the library's output (a conformance module, or the
 *   control-plane tier's controllers);
 * - `crds`: only its CRDs are read (schemas, CEL), no code of it runs;
 * - `notes`: only its release notes (and upstream sources) are read; nothing of it runs here.
 */
export type Proof = 'code' | 'crds' | 'notes';

/** One version of an upstream we know, with its proof. */
export interface KnownVersion {
  readonly version: string;
  readonly proof: Proof;
  /** One line: which conformance module or control plane runs it, or what was read. */
  readonly how: string;
}

/** One upstream's window. */
export interface UpstreamWindow {
  readonly id: UpstreamId;
  /** The name people know it by. */
  readonly title: string;
  /** The oldest version the output is meant to work on (a line such as `1.34` means all of it). */
  readonly oldest: string;
  /** The newest version the output is meant to work on. */
  readonly newest: string;
  /** Whether versions are release numbers (ordered) or a commit (only itself). */
  readonly scheme: 'semver' | 'commit';
  /** The versions we know, oldest first. */
  readonly versions: readonly KnownVersion[];
}

/** The window, one row per upstream, in the order docs and messages list them. */
export const SUPPORT_WINDOW: readonly UpstreamWindow[] = [
  {
    id: 'kubernetes',
    title: 'Kubernetes',
    oldest: '1.34',
    newest: '1.35',
    scheme: 'semver',
    versions: [
      { version: 'v1.34.4', proof: 'code', how: 'k8s.io/kubernetes validation in conformance/kube; the control-plane tier (test/cluster) runs kube-apiserver v1.34.4' },
      { version: 'v1.35.0', proof: 'code', how: 'k8s.io/kubernetes validation in conformance/kube-v1.35 (the same checks as conformance/kube, built with v1.35.0)' },
    ],
  },
  {
    id: 'trainingOperator',
    title: 'Kubeflow Training Operator',
    oldest: 'v1.9.0',
    newest: 'v1.9.4',
    scheme: 'semver',
    versions: [
      { version: 'v1.9.0', proof: 'code', how: 'the v1 webhooks\' validation in conformance/kubeflow-v1.9.0 (its CRDs are not checked apart: upstream/crds/training-operator pins v1.9.4\'s)' },
      { version: 'v1.9.4', proof: 'code', how: 'the v1 webhooks\' validation in conformance/kubeflow; CRDs pinned in upstream/crds/training-operator' },
    ],
  },
  {
    id: 'jobset',
    title: 'JobSet',
    oldest: 'v0.11.1',
    newest: 'v0.12.0',
    scheme: 'semver',
    versions: [
      { version: 'v0.11.1', proof: 'notes', how: 'the JobSet Trainer v2.2.0 depends on; read from its release, not run here' },
      { version: 'v0.12.0', proof: 'code', how: 'JobSet\'s webhook validation in conformance/trainer (the JobSet Trainer v2.3.0 depends on)' },
    ],
  },
  {
    id: 'trainer',
    title: 'Kubeflow Trainer',
    oldest: 'v2.2.0',
    newest: 'v2.4.0',
    scheme: 'semver',
    versions: [
      { version: 'v2.2.0', proof: 'code', how: 'the CRD steps, the Trainer webhooks and the JobSet built, in conformance/trainer-v2.2 with v2.2.0\'s CRDs and built-in runtimes (JobSet v0.11.1\'s webhooks do not build with its pins, so they run at v2.3.0 only)' },
      { version: 'v2.3.0', proof: 'code', how: 'the Trainer webhooks in conformance/trainer; CRDs and built-in runtimes pinned in upstream/' },
      { version: 'v2.4.0', proof: 'notes', how: 'its release notes: the Go module proxy does not serve v2.4.0, so no code of it runs here' },
    ],
  },
  {
    id: 'notebooks',
    title: 'Kubeflow Notebooks v2',
    oldest: '8b61057',
    newest: '8b61057',
    scheme: 'commit',
    versions: [
      { version: '8b61057', proof: 'crds', how: 'the notebooks-v2 branch\'s CRDs pinned in upstream/crds/notebooks-v2 (no Go module is served)' },
    ],
  },
  {
    id: 'kueue',
    title: 'Kueue',
    oldest: 'v0.15.2',
    newest: 'v0.20',
    scheme: 'semver',
    versions: [
      { version: 'v0.15.2', proof: 'code', how: 'Kueue\'s CRD schemas and webhooks in conformance/kueue; CRDs pinned in upstream/crds/kueue' },
      { version: 'v0.19.2', proof: 'code', how: 'Kueue\'s CRD schemas and webhooks in conformance/kueue; the control-plane tier runs it with v1beta1 unserved, as v0.20 does' },
      { version: 'v0.20', proof: 'notes', how: 'its release notes (v1beta1 no longer served): the Go module proxy does not serve v0.20, so no code of it runs here' },
    ],
  },
];

/** The row of an upstream. */
export function upstreamWindow(id: UpstreamId): UpstreamWindow {
  return SUPPORT_WINDOW.find(u => u.id === id)!;
}

/** The keys a target takes, in table order. */
export const UPSTREAM_IDS: readonly UpstreamId[] = SUPPORT_WINDOW.map(u => u.id);
