import { PROPERTY_RUNS, propsProperty } from './boundary-arbitraries';
import { Workspace, WorkspaceKind } from '../../src';

const BASE = { metadata: { name: 'alice' }, kind: WorkspaceKind.fromName('jupyterlab'), imageConfig: 'scipy', podConfig: 'small' };

test(`Workspace: ${PROPERTY_RUNS} arbitrary values for its props end in the library's error or a manifest that keeps them`, () => {
  const fields = propsProperty('Workspace', 'WorkspaceProps', BASE, (chart, props) => new Workspace(chart, 'ws', props), 'test/ws');
  expect(fields).toBe(11);
});
