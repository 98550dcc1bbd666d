import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkConstructor } from '../boundary/constructor-checks';
import { checkRenderedDocument } from '../synth/engine';
import { checkCount } from '../synth/report';

/** Where the training operator reads its PyTorch init-container template, and who it runs as. */
export interface PyTorchInitContainerTemplateProps {
  /**
   * The namespace the training operator runs in.
   * @default "kubeflow"
   */
  readonly operatorNamespace?: string;
  /**
   * The ConfigMap's name.
   * @default "training-operator-pytorch-init"
   */
  readonly name?: string;
  /**
   * The user the init container runs as; the restricted standard needs a non-root one, and the
   * kubelet refuses `runAsNonRoot` for an image whose user is root (the operator's default
   * alpine image), so it is given by number.
   * @default 65534 (nobody, which alpine images have)
   */
  readonly user?: number;
}

/** The key of the template in the ConfigMap, the file name the operator reads by default. */
const TEMPLATE_FILE = 'initContainer.yaml';

/**
 * The training operator's init-container template for PyTorchJob workers, in a ConfigMap, so that
 * `PodSecurity.RESTRICTED` holds end to end. For a PyTorchJob with a Master the operator (v1.9)
 * adds an `init-pytorch` container to every Worker pod, and its built-in template has no security
 * context: a namespace that enforces "restricted" refuses those workers. The operator reads the
 * template from `--pytorch-init-container-template-file` (default `/etc/config/initContainer.yaml`);
 * mount this ConfigMap at `/etc/config` in the operator's Deployment (see
 * docs/control-plane.md). The template keeps the operator's fields (`{{.InitContainerImage}}`,
 * `{{.MasterAddr}}`, `{{.MaxTries}}`) and adds a security context that meets the standard.
 *
 * The MPIJob (v1) launcher cannot be made to comply this way: the operator adds its
 * `kubectl-delivery` container in code, which is why `MpiAllReduce` refuses `PodSecurity.RESTRICTED`.
 */
export class PyTorchInitContainerTemplate extends Construct {
  /** The ConfigMap holding the template under `initContainer.yaml`. */
  public readonly configMap: kplus.ConfigMap;

  /**
   * @param scope the construct the ConfigMap belongs to (a platform chart)
   * @param id the construct id, unique within `scope`
   * @param props the operator's namespace, the ConfigMap's name and the user the container runs as
   */
  public constructor(scope: Construct, id: string, props: PyTorchInitContainerTemplateProps = {}) {
    super(scope, id);
    // Not a KubeflowResource (it renders a cdk8s-plus ConfigMap), so it makes the check that base makes.
    checkConstructor(this, new.target, [scope, id, props]);
    const user = props.user ?? 65534;
    checkCount(this, 'user', user, 1);
    this.configMap = new kplus.ConfigMap(this, 'Resource', {
      metadata: { name: props.name ?? 'training-operator-pytorch-init', namespace: props.operatorNamespace ?? 'kubeflow' },
      data: { [TEMPLATE_FILE]: template(user) },
    });
    checkRenderedDocument(this, ApiObject.of(this.configMap));
  }
}

/** The template: a list of containers rendered by the operator with Go's html/template. */
function template(user: number): string {
  return [
    '- name: init-pytorch',
    '  image: {{.InitContainerImage}}',
    '  imagePullPolicy: IfNotPresent',
    '  resources:',
    '    limits: {cpu: 100m, memory: 20Mi}',
    '    requests: {cpu: 50m, memory: 10Mi}',
    '  securityContext:',
    '    allowPrivilegeEscalation: false',
    '    capabilities: {drop: ["ALL"]}',
    '    runAsNonRoot: true',
    `    runAsUser: ${user}`,
    `    runAsGroup: ${user}`,
    '    seccompProfile: {type: RuntimeDefault}',
    '  command:',
    '    - sh',
    '    - -c',
    '    - \'n=0; until nslookup {{.MasterAddr}}; do n=$((n+1)); if [ "$n" -ge {{.MaxTries}} ]; then exit 1; fi; echo "waiting for {{.MasterAddr}}"; sleep 2; done\'',
    '',
  ].join('\n');
}
