/*
 * What the library writes and checks for an accelerator and for shared memory, in one place: the
 * constructs (v1 replicas, Trainer runtimes and jobs, workspace kinds), the rules and `convert`
 * (which recognises what the constructs write) read these, so they cannot drift apart.
 */

/** The memory-backed volume at /dev/shm a `sharedMemory` prop mounts, named as the v1 operators' examples name it. */
export const SHARED_MEMORY_VOLUME = 'dshm';
export const SHARED_MEMORY_PATH = '/dev/shm';

/**
 * The toleration of an accelerator's taint (the device plugins' nodes are tainted with the resource
 * name, `NoSchedule`), which the constructs give the pods of an accelerator.
 */
export function acceleratorToleration(resourceName: string): { key: string; operator: string; effect: string } {
  return { key: resourceName, operator: 'Exists', effect: 'NoSchedule' };
}

/**
 * Whether the Trainer's torch and mpi plugins count a resource as GPUs per node
 * (runtime.GetNumGPUPerNode: its name contains "gpu", in any case); other accelerators are not
 * counted, so the process count is written explicitly for them.
 */
export function trainerCountsAsGpu(resourceName: string): boolean {
  return resourceName.toLowerCase().includes('gpu');
}

/** The Training Operator's test of a GPU resource (isGPULauncher, the MPI hostfile): a name with "gpu" in it. */
export function operatorCountsAsGpu(resourceName: string): boolean {
  return resourceName.endsWith('.com/gpu') || resourceName.includes('gpu');
}

/** Why more processes than accelerators on a node is refused: NCCL will not share a device between ranks. */
export function processesPerDeviceAllowed(devices: number): string {
  return `expected at most the ${devices} accelerators per node (one process per device)`;
}
