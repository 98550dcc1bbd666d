/**
 * PyTorchInitContainerTemplate: the training operator's init-container template for PyTorchJob
 * workers, which makes PodSecurity.RESTRICTED hold on a cluster (the control-plane tier runs the
 * operator with the template this construct writes, taken from dist/).
 */
import { Chart, Testing } from 'cdk8s';
import * as yaml from 'js-yaml';
import { PyTorchInitContainerTemplate } from '../../src';
import { synthKind } from '../harness';
import { WHOLE_NUMBER_1_OR_MORE } from '../harness/messages';

/** The template as the operator renders it (Go's html/template with its three fields). */
function rendered(template: string): any[] {
  return yaml.load(template.replace(/\{\{\.InitContainerImage\}\}/g, 'alpine:3.10')
    .replace(/\{\{\.MasterAddr\}\}/g, 'train-master-0').replace(/\{\{\.MaxTries\}\}/g, '100')) as any[];
}

test('a ConfigMap in the operator\'s namespace holds initContainer.yaml, the file the operator reads by default', () => {
  const cm = synthKind('ConfigMap', c => new PyTorchInitContainerTemplate(c, 'init'));
  expect(cm.metadata).toEqual({ name: 'training-operator-pytorch-init', namespace: 'kubeflow' });
  expect(Object.keys(cm.data)).toEqual(['initContainer.yaml']);
  const [container, ...rest] = rendered(cm.data['initContainer.yaml']);
  expect(rest).toEqual([]);
  expect(container).toEqual({
    name: 'init-pytorch',
    image: 'alpine:3.10',
    imagePullPolicy: 'IfNotPresent',
    resources: { limits: { cpu: '100m', memory: '20Mi' }, requests: { cpu: '50m', memory: '10Mi' } },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      runAsNonRoot: true,
      runAsUser: 65534,
      runAsGroup: 65534,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    command: ['sh', '-c', 'n=0; until nslookup train-master-0; do n=$((n+1)); if [ "$n" -ge 100 ]; then exit 1; fi; echo "waiting for train-master-0"; sleep 2; done'],
  });
});

test('the namespace, name and user can be chosen; a root or fractional user is refused', () => {
  const cm = synthKind('ConfigMap', c => new PyTorchInitContainerTemplate(c, 'init', { operatorNamespace: 'ml-system', name: 'pytorch-init', user: 1001 }));
  expect(cm.metadata).toEqual({ name: 'pytorch-init', namespace: 'ml-system' });
  expect(rendered(cm.data['initContainer.yaml'])[0].securityContext.runAsUser).toBe(1001);
  expect(() => new PyTorchInitContainerTemplate(new Chart(Testing.app(), 'test'), 'init', { user: 0 }))
    .toThrow(new Error(`test/init: user is 0; ${WHOLE_NUMBER_1_OR_MORE}`));
});
