import { ApiObject, ApiObjectMetadataDefinition } from 'cdk8s';
import { Construct } from 'constructs';
import { PlatformDefaults, PlatformDefaultsProps } from './defaults';
import { PodSecurity } from './security';
import { addLateMetadata, LateMetadata, omitNamespace } from '../synth/render-hook';
import { propForField } from './internal/prop-fields';
import { resolvePropsInOneWalk } from './internal/resolve-props';
import { setOnce } from './internal/set-once';
import { targetWindowOf } from './internal/target';
import { checkedPropsOf } from '../boundary/checked-props';
import { checkConstructor } from '../boundary/constructor-checks';
import { Finding } from '../rules/finding';
import { checkRenderedDocument, PropOf } from '../synth/engine';
import { failAtSynth } from '../synth/report';

/**
 * The base of the library's top-level constructs (the v1 training jobs, TrainJob, the training
 * runtimes, Workspace and WorkspaceKind): each renders one Kubernetes object, the L1 `apiObject`,
 * whose spec is produced at synth time so that `add*` calls made after construction still land.
 *
 * Every `add*` method of these constructs that takes a key and a value has one meaning: a key
 * holds one value. Adding a key again with the same value changes nothing; adding it with another
 * value throws at once, naming the construct path, the key and both values (two parts of a program
 * disagreeing is a mistake that silently keeping either value would hide).
 */
export abstract class KubeflowResource extends Construct {
  private _apiObject?: ApiObject;
  /** The pods' labels and annotations, for a construct that writes one pod template (see `_addPodMetadata`). */
  private readonly podMetadata: { [field in PodMetadataField]: { [key: string]: string } } = { podLabels: {}, podAnnotations: {} };

  /**
   * @param scope the construct this one belongs to
   * @param id its construct id, unique within `scope`
   * @param props the props the concrete construct was created with: checked here, for every
   * construct at once, against the types of the jsii assembly (a JavaScript caller, a
   * configuration file or another jsii language can pass anything), and kept for the messages
   * that name the prop behind a rendered field
   */
  protected constructor(scope: Construct, id: string, props?: any) {
    super(scope, id);
    // The one constructor check of the library's top-level constructs: `new.target` is the class
    // the caller named, so its own props type is the one checked (see ../boundary/install.ts).
    checkConstructor(this, new.target, [scope, id, props]);
  }

  /** The L1 API object this construct renders into. */
  public get apiObject(): ApiObject {
    // Set by every subclass's constructor; only code running inside that constructor, before the
    // object exists, could see it unset.
    if (!this._apiObject) throw new Error(`${this.node.path}: the API object is not created yet`);
    return this._apiObject;
  }

  /** The object's metadata, for reading; add labels and annotations with `addLabel` and `addAnnotation`. */
  public get metadata(): ApiObjectMetadataDefinition {
    return this.apiObject.metadata;
  }

  /** The object's name (`metadata.name`). */
  public get name(): string {
    return this.apiObject.name;
  }

  /**
   * Adds a label to the object's metadata (not to its pods: see `addPodLabel`).
   *
   * @param key the label's key, which holds one value
   * @param value the label's value
   */
  public addLabel(key: string, value: string): void {
    const existing = this.metadata.getLabel(key);
    if (existing !== undefined && existing !== value) {
      // Reported at synth with the app's other mistakes; the first value stays.
      failAtSynth(this, `metadata.labels[${JSON.stringify(key)}]`, value, `expected one value per key; it is already ${JSON.stringify(existing)}`);
      return;
    }
    this.metadata.addLabel(key, value);
  }

  /**
   * Adds an annotation to the object's metadata (not to its pods: see `addPodAnnotation`).
   *
   * @param key the annotation's key, which holds one value
   * @param value the annotation's value
   */
  public addAnnotation(key: string, value: string): void {
    const existing: string | undefined = this.metadata.toJson().annotations?.[key];
    if (existing !== undefined && existing !== value) {
      // Reported at synth with the app's other mistakes; the first value stays.
      failAtSynth(this, `metadata.annotations[${JSON.stringify(key)}]`, value, `expected one value per key; it is already ${JSON.stringify(existing)}`);
      return;
    }
    this.metadata.addAnnotation(key, value);
  }

  /**
   * Adds a label to the pods this construct describes: every replica type of a v1 job, the
   * training pods of a TrainJob (in its runtime patch) or of a runtime (the nodes and the MPI
   * launcher), the workspace pod. On a v1 job or a runtime, each replica type holds its own pod
   * labels (its role options may have set the key already), so a refusal names that replica type.
   *
   * @param key the label's key, which holds one value
   * @param value the label's value
   */
  public addPodLabel(key: string, value: string): void {
    this._addPodMetadata('podLabels', key, value);
  }

  /**
   * Adds an annotation to the pods this construct describes, as `addPodLabel` adds a label.
   *
   * @param key the annotation's key, which holds one value
   * @param value the annotation's value
   */
  public addPodAnnotation(key: string, value: string): void {
    this._addPodMetadata('podAnnotations', key, value);
  }

  /**
   * The constructor steps every top-level construct takes once its props are checked: keep the L1
   * object, add the labels and annotations known only at synth (platform defaults, Kueue), drop
   * the namespace of a cluster-scoped kind, register the object with the document rules and the
   * construct's own synth-time checks.
   * @internal
   */
  protected _adopt(apiObject: ApiObject, steps: AdoptSteps): ApiObject {
    this._apiObject = apiObject;
    resolvePropsInOneWalk(apiObject);
    addLateMetadata(apiObject, steps.lateMetadata);
    if (steps.clusterScoped) omitNamespace(apiObject);
    // The construct's own answer first (it may know better, as MPI does for the launcher's
    // command), then the table every family shares, from the props the construct was created with.
    const own = steps.propOf;
    const propOf = (field: string) => own?.(field) ?? propForField(field, checkedPropsOf(this), apiObject.kind);
    checkRenderedDocument(this, apiObject, propOf, steps.validate, () => targetWindowOf(this));
    return apiObject;
  }

  /**
   * The platform defaults that apply to this construct.
   * @internal
   */
  protected get _platformDefaults(): PlatformDefaultsProps {
    return PlatformDefaults._of(this);
  }

  /**
   * The security preset: the construct's own, else the platform default, else DEFAULT.
   * @internal
   */
  protected _podSecurity(own: PodSecurity | undefined, defaults?: PlatformDefaultsProps): PodSecurity {
    // `defaults`: the platform defaults when the caller has them at hand (looking them up walks
    // the tree).
    return own ?? (defaults ?? this._platformDefaults).security ?? PodSecurity.DEFAULT;
  }

  /**
   * Sets a key of the pods' labels or annotations once. A construct with one pod template keeps
   * them here (read with `_podLabels` and `_podAnnotations`); the v1 jobs and the runtimes pass
   * them to their replica groups instead, which set each key once too.
   * @internal
   */
  protected _addPodMetadata(field: PodMetadataField, key: string, value: string): void {
    setOnce(this, field, this.podMetadata[field], key, value);
  }

  /**
   * The pods' labels added with `addPodLabel` (or the `podLabels` prop), in the order added.
   * @internal
   */
  protected get _podLabels(): { [key: string]: string } {
    return this.podMetadata.podLabels;
  }

  /**
   * The pods' annotations added with `addPodAnnotation` (or the `podAnnotations` prop).
   * @internal
   */
  protected get _podAnnotations(): { [key: string]: string } {
    return this.podMetadata.podAnnotations;
  }
}

/** The pod metadata an `addPod*` method adds to, named as the props and messages name it. */
export type PodMetadataField = 'podLabels' | 'podAnnotations';

/** What `_adopt` does beyond keeping the object. */
interface AdoptSteps {
  /** Labels and annotations added at synth, under the ones the metadata sets. */
  readonly lateMetadata: () => LateMetadata;
  /** A cluster-scoped kind: the chart's namespace is not written on it. */
  readonly clusterScoped?: boolean;
  /** The prop that set a field of the rendered object, for the document rules' messages. */
  readonly propOf?: PropOf;
  /** The construct's synth-time checks. */
  readonly validate: () => Finding[];
}
