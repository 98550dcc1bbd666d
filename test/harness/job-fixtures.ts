/** The PyTorch job the construct tests build on, and the small helpers the tests around it share. */
import { App, Chart } from 'cdk8s';
import { synthKind } from './synth';
import { DistributedPyTorch, DistributedPyTorchProps } from '../../src';

/** The image of the tests' PyTorch jobs. */
export const PYTORCH_IMAGE = 'pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime';

/** A DistributedPyTorch with the id `job`, named train, with one worker unless the props say otherwise. */
export function pytorchJob(chart: Chart, props: Partial<DistributedPyTorchProps> = {}): DistributedPyTorch {
  return new DistributedPyTorch(chart, 'job', { metadata: { name: 'train' }, image: PYTORCH_IMAGE, workers: 1, ...props });
}

/** The PyTorchJob manifest of an app with that one job; `before` runs on the chart first (to set platform defaults). */
export function synthPyTorchJob(props: Partial<DistributedPyTorchProps> = {}, before?: (chart: Chart) => void): any {
  return synthKind('PyTorchJob', chart => { before?.(chart); pytorchJob(chart, props); });
}

/** The message `f` throws, or undefined when it throws nothing. */
export function thrown(f: () => void): string | undefined {
  try { f(); } catch (e) { return (e as Error).message; }
  return undefined;
}

/** A chart of its own app, for tests that construct without synthesizing. */
export const freshChart = (): Chart => new Chart(new App(), 'test');
