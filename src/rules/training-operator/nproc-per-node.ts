/**
 * A PyTorchJob's spec.nprocPerNode: a string the operator passes to torchrun as
 * PET_NPROC_PER_NODE (and reads as a number for WORLD_SIZE when it is one), like the deprecated
 * elasticPolicy.nProcPerNode (an integer). torchrun (run.py determine_local_world_size) reads a
 * whole number, else one of the words "cpu", "gpu", "xpu", "auto" or the name of a device backend
 * PyTorch has loaded (such as "npu"), and refuses anything else at start. A whole number below 1
 * starts no process on a node, so the job trains nothing. The CRD types the field as a string with
 * no pattern, and the webhook does not look at it.
 */
import { Finding } from '../finding';
import { Rule } from '../rule';
import { TrainingKindFacts } from './training-kinds';

export const NPROC_PER_NODE = new Rule('training-operator', 'training-operator/nproc-per-node', 'numbers',
  'training-operator pkg/controller.v1/pytorch envvar.go (PET_NPROC_PER_NODE from spec.nprocPerNode, and WORLD_SIZE from its number); torchrun --nproc-per-node (run.py determine_local_world_size)',
  'a PyTorchJob\'s nprocPerNode is a whole number of 1 or more, or a word torchrun reads (auto, cpu, gpu, xpu, or a device backend\'s name)');

export const NPROC_RULES = [NPROC_PER_NODE];

/** A whole number as Python's int() reads it (blanks around it allowed). */
const WHOLE = /^\s*[+-]?\d+\s*$/;
/** A word torchrun may know: its own, or a device backend's name (lower case, as PyTorch registers them). */
const DEVICE_WORD = /^[a-z][a-z0-9_]*$/;

/** Checks a PyTorchJob's processes per node as torchrun will read them. */
export function checkNprocPerNode(doc: any, facts: TrainingKindFacts, out: Finding[]): void {
  if (facts.kind !== 'PyTorchJob') return;
  const value = doc.spec?.nprocPerNode;
  if (typeof value === 'string') {
    const refused = 'torchrun refuses any other value, and every pod exits at start';
    if (WHOLE.test(value)) {
      // The same text as the construct's NprocPerNode.of(n) prop.
      if (Number(value) < 1) NPROC_PER_NODE.report(out, 'spec.nprocPerNode', value, 'expected a whole number of 1 or more');
    } else if (value === 'cuda') {
      NPROC_PER_NODE.report(out, 'spec.nprocPerNode', value, `expected "gpu" (one process per CUDA device), "auto" or a whole number of 1 or more: ${refused}`);
    } else if (!DEVICE_WORD.test(value)) {
      NPROC_PER_NODE.report(out, 'spec.nprocPerNode', value, `expected a whole number of 1 or more, or "auto", "cpu", "gpu", "xpu" or a device backend's name in lower case: ${refused}`);
    }
  }
  const deprecated = doc.spec?.elasticPolicy?.nProcPerNode;
  if (typeof deprecated === 'number' && Number.isInteger(deprecated) && deprecated < 1) {
    NPROC_PER_NODE.report(out, 'spec.elasticPolicy.nProcPerNode', deprecated, 'expected a whole number of 1 or more (or spec.nprocPerNode instead, which replaces it)');
  }
}
