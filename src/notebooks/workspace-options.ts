import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import * as notebooks from '../../imports/notebooks';
import { DNS_LABEL_TEXT, DNS_SUBDOMAIN_TEXT, isLabel, isSubdomain } from '../common/internal/names';
import { parseKnown } from '../common/internal/parse-value';
import { Resources } from '../common/resources';
import { Finding, finding } from '../rules/finding';


/**
 * An icon or logo shown by the Workspace spawner UI: a URL, or an SVG held in a ConfigMap.
 */
export class SpawnerImage {
  /**
   * An image the browser loads from a URL.
   *
   * @param url where the image is, for example `https://jupyter.org/assets/favicons/apple-touch-icon-152x152.png`
   */
  public static fromUrl(url: string): SpawnerImage {
    return new SpawnerImage({ url });
  }

  /**
   * An SVG image stored under a key of a ConfigMap (the only media type the CRD accepts is
   * `image/svg+xml`).
   *
   * @param name the ConfigMap's name
   * @param key the key that holds the SVG, for example `logo.svg`
   * @param namespace the ConfigMap's namespace (a WorkspaceKind is cluster-scoped, so it is required)
   */
  public static fromConfigMap(name: string, key: string, namespace: string): SpawnerImage {
    return new SpawnerImage({
      configMap: { name, key, namespace, mediaType: notebooks.IconOrLogoConfigMapMediaType.IMAGE_FORWARD_SLASH_SVG_XML },
    });
  }

  private constructor(private readonly source: notebooks.IconOrLogo) {}

  /** The URL, when the image is loaded from one. */
  public get url(): string | undefined {
    return this.source.url;
  }

  /**
   * What is wrong with the image, if anything.
   * @internal
   */
  public _finding(field: string): Finding | undefined {
    const cm = this.source.configMap;
    if (!cm) {
      return this.source.url ? undefined : finding(`${field}.url`, this.source.url, 'expected the URL of an image');
    }
    if (!isSubdomain(cm.name)) return finding(`${field}.configMap.name`, cm.name, `expected ${DNS_SUBDOMAIN_TEXT}`);
    if (!isLabel(cm.namespace)) return finding(`${field}.configMap.namespace`, cm.namespace, `expected ${DNS_LABEL_TEXT}`);
    if (!/^[-._a-zA-Z0-9]+$/.test(cm.key) || cm.key.length > 253) {
      return finding(`${field}.configMap.key`, cm.key, 'expected a ConfigMap key: letters, digits, "-", "_" and ".", at most 253 characters');
    }
    return undefined;
  }

  /** @internal */
  public _toL1(): notebooks.IconOrLogo {
    return this.source;
  }
}

/** How prominently the spawner shows the message of a redirect. */
export class RedirectLevel {
  /** An informational note. */
  public static readonly INFO = new RedirectLevel('Info');
  /** A change the user should read before restarting. */
  public static readonly WARNING = new RedirectLevel('Warning');
  /** A change that is likely to break the user's work. */
  public static readonly DANGER = new RedirectLevel('Danger');
  /**
   * The RedirectLevel a configuration file names, refused at once if the value is not one of the set
   * (the error lists them, and the closest to the value given).
   *
   * @param value the level as the CRD spells it: `Info`, `Warning` or `Danger`
   * @param key the configuration key the value came from, named in the error (such as `workers.restartPolicy`)
   */
  public static parse(value: string, key?: string): RedirectLevel {
    return parseKnown('RedirectLevel.parse', value, key, [['Info', RedirectLevel.INFO], ['Warning', RedirectLevel.WARNING], ['Danger', RedirectLevel.DANGER]], 'the redirect levels of the pinned Notebooks v2 CRD');
  }
  /** The level as the CRD spells it. */
  public readonly value: string;

  private constructor(value: string) {
    this.value = value;
  }
}

/**
 * Sends workspaces that use an option to a newer one. Redirected options are hidden from the
 * spawner; existing workspaces show a pending restart until their owner updates them.
 */
export interface OptionRedirect {
  /** The id of the option to move to; it must exist in the same list and the chain must end. */
  readonly to: string;
  /**
   * What changes for the user, shown with the pending restart.
   * @default - no message
   */
  readonly message?: string;
  /**
   * How prominently the message is shown; refused without a message (the CRD keeps the level in it).
   * @default RedirectLevel.INFO
   */
  readonly level?: RedirectLevel;
}

/** How an image or pod-config option appears in the spawner, common to both kinds of option. */
export interface WorkspaceOptionProps {
  /**
   * Name shown in the spawner (2 to 128 characters).
   * @default - the option's id
   */
  readonly displayName?: string;
  /**
   * Longer description shown in the spawner.
   * @default - none
   */
  readonly description?: string;
  /**
   * Hide the option from the spawner; workspaces can still name it.
   * @default false
   */
  readonly hidden?: boolean;
  /**
   * Key-value labels shown with the option, in this order; activity and filter rules select
   * options by them.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Move workspaces that use this option to another one.
   * @default - not redirected
   */
  readonly redirect?: OptionRedirect;
}

/** A port an image listens on, naming one of the kind's port definitions. */
export interface ImagePort {
  /** The id of a port the kind declares (see `WorkspaceKind.addPort`). */
  readonly id: string;
  /** The TCP port the container listens on (1 to 65535). */
  readonly port: number;
  /**
   * Name of the port's "connect" entry for this image.
   * @default - the kind's display name of the port
   */
  readonly displayName?: string;
}

/** An image option: the container image users can choose and the ports it serves. */
export interface ImageConfigOptions extends WorkspaceOptionProps {
  /** The container image. */
  readonly image: string;
  /**
   * When the image is pulled.
   * @default kplus.ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;
  /** The ports the image listens on; each id must be declared on the kind, and used once. */
  readonly ports: ImagePort[];
}

/** A pod-config option: the size and placement of the workspace pod users can choose. */
export interface PodConfigOptions extends WorkspaceOptionProps {
  /**
   * What the workspace container requests. CPU, memory and ephemeral storage are written as
   * requests only (notebooks are idle most of the time and burst when used); an accelerator is
   * written as a limit with an equal request, because Kubernetes rejects extended resources that
   * are requested without a limit.
   * @default - no requests
   */
  readonly requests?: Resources;
  /**
   * Upper bounds of the workspace container: CPU, memory and ephemeral storage written as limits
   * (each at least its request). Pass the same value as `requests` for the Guaranteed QoS class.
   * An accelerator here must equal the one in `requests`.
   * @default - no limits but the accelerator's
   */
  readonly limits?: Resources;
  /**
   * Node labels the pod must match; merged over the platform defaults' node selector.
   * @default - the platform defaults' node selector, else none
   */
  readonly nodeSelector?: { [key: string]: string };
  /**
   * Tolerations, added to the platform defaults' ones (a toleration of the accelerator's own taint
   * is added when one is requested).
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];
  /**
   * Node and pod affinity.
   * @default - none
   */
  readonly affinity?: k8s.Affinity;
}

/**
 * A port definition of the kind: the "type" of service an image can offer, with how the
 * Istio-based proxy forwards requests to it. Images map the id to the port they listen on.
 */
export interface WorkspacePort {
  /** The id (lower-case letters, digits, "-" and "_", at most 32 characters); part of the URL. */
  readonly id: string;
  /** Name of the port's "connect" entry in the UI (2 to 64 characters). */
  readonly displayName: string;
  /**
   * Strip the `/workspace/connect/<namespace>/<workspace>/` prefix from requests, so the
   * application sees `/...`; it only works for applications that use relative URLs.
   * @default false
   */
  readonly removePathPrefix?: boolean;
  /**
   * Request headers to set (the template `{{ .PathPrefix }}` is available).
   * @default - none
   */
  readonly setRequestHeaders?: { [name: string]: string };
  /**
   * Request headers to append to.
   * @default - none
   */
  readonly addRequestHeaders?: { [name: string]: string };
  /**
   * Request headers to remove.
   * @default - none
   */
  readonly removeRequestHeaders?: string[];
}
