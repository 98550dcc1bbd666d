/**
 * A PyTorchJob's spec.nprocPerNode: a string the operator passes to torchrun as
 * PET_NPROC_PER_NODE (and reads as a number for WORLD_SIZE when it is one). "auto", "cpu", "gpu"
 * and other words are torchrun's to judge; a whole number below 1 starts no process on a node, so
 * the job trains nothing. The CRD types the field as a string with no pattern, and the webhook does
 * not look at it.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { TrainingKindFacts } from './training-kinds';

export const NPROC_PER_NODE = new Rule('training-operator', 'training-operator/nproc-per-node', 'numbers',
  'training-operator pkg/controller.v1/pytorch envvar.go (PET_NPROC_PER_NODE from spec.nprocPerNode, and WORLD_SIZE from its number); torchrun --nproc-per-node',
  'a PyTorchJob\'s nprocPerNode, when it is a whole number, is at least 1 (words such as auto, cpu and gpu are torchrun\'s)');

export const NPROC_RULES = [NPROC_PER_NODE];

/** Checks a PyTorchJob's nprocPerNode, when it is a whole number, for at least one process. */
export function checkNprocPerNode(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  if (facts.kind !== 'PyTorchJob') return;
  const value = doc.spec?.nprocPerNode;
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value.trim())) return;
  // The same text as the construct's NprocPerNode.of(n) prop.
  if (Number(value) < 1) NPROC_PER_NODE.report(out, 'spec.nprocPerNode', value, 'expected a whole number of 1 or more');
}
