/** The WorkspaceKind the tests build on: JupyterLab with one port, and its scipy image option. */
import { ImageConfigOptions, SpawnerImage, WorkspaceKindProps } from '../../src';

/** A minimal valid WorkspaceKind's props. */
export const JUPYTERLAB_KIND: WorkspaceKindProps = {
  metadata: { name: 'jupyterlab' },
  displayName: 'JupyterLab',
  description: 'JupyterLab in a pod',
  icon: SpawnerImage.fromUrl('https://jupyter.org/favicon.png'),
  ports: [{ id: 'jupyterlab', displayName: 'JupyterLab' }],
};

/** An image option serving that port. */
export const SCIPY_IMAGE: ImageConfigOptions = { image: 'quay.io/jupyter/scipy-notebook:2025-01-06', ports: [{ id: 'jupyterlab', port: 8888 }] };
