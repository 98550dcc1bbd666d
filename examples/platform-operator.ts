import { App, Chart } from 'cdk8s';
import { PyTorchInitContainerTemplate } from '../src';

/**
 * What a platform team deploys beside the training operator so that PodSecurity.RESTRICTED holds
 * end to end: the operator's init-container template for PyTorchJob workers, with a security
 * context that meets the "restricted" standard. Mount the ConfigMap at /etc/config in the
 * operator's Deployment (docs/control-plane.md); the control-plane tier runs the operator with it.
 */
export default function (app: App): void {
  const chart = new Chart(app, 'platform-operator');
  new PyTorchInitContainerTemplate(chart, 'pytorch-init', { operatorNamespace: 'kubeflow' });
}
