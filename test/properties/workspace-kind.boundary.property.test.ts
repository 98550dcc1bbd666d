import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { WorkspaceKind } from '../../src';
import { JUPYTERLAB_KIND as BASE } from '../harness/notebook-fixtures';


test(`WorkspaceKind: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('WorkspaceKind', 'WorkspaceKindProps', BASE, (chart, props) => {
    const kind = new WorkspaceKind(chart, 'kind', props);
    kind.addImageConfig('scipy', { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] });
    kind.addPodConfig('small', { requests: { cpu: kplus.Cpu.millis(500), memory: Size.gibibytes(1) } });
  }, 'test/kind');
  expect(fields).toBe(26);
});
