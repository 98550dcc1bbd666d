import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { SpawnerImage, WorkspaceKind } from '../../src';

const BASE = {
  metadata: { name: 'jupyterlab' },
  displayName: 'JupyterLab',
  description: 'JupyterLab in a pod',
  icon: SpawnerImage.fromUrl('https://jupyter.org/favicon.png'),
  ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
};

test(`WorkspaceKind: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('WorkspaceKind', 'WorkspaceKindProps', BASE, (chart, props) => {
    const kind = new WorkspaceKind(chart, 'kind', props);
    kind.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
    kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  }, 'test/kind');
  expect(fields).toBe(26);
});
