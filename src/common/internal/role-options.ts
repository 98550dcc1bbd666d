import { mergeNetworking } from './networking';
import { dropUndefined, mergeMaps } from '../../util/collections';
import type { ReplicaOptions } from '../replica';

/**
 * The options of one role over the options it inherits: a v1 job's replica type over the job's
 * options, and a training runtime's MPI launcher over its nodes' options. Both go through here, so
 * `launcher: { nodeHealth }` means the same on an MPIJob and on an MPI runtime. What the role
 * inherits in the first place (the v1 launcher leaves the job's resources behind, the runtime's
 * launcher the nodes' command) is the caller's choice; how the two are combined is this:
 *
 * - single values (image, command, resources, affinity, topology, security context, ...): the
 *   role's replaces the inherited one, which is what "options of this role" reads as;
 * - maps (env, nodeSelector, podLabels, podAnnotations): merged key by key, the role's value
 *   winning, so a role adds a variable or a label without restating the others;
 * - tolerations and nodeHealth: added up. A node a health checker rules out for the job is ruled
 *   out for every role: a role can stay off more nodes, never fewer (lifting a verdict for one
 *   role would put its pods on the node the job avoids);
 * - network: field by field (RDMA devices, secondary networks, NCCL settings), like the platform
 *   default under the job's.
 */
export function mergeRoleOptions<B extends ReplicaOptions, R extends ReplicaOptions>(inherited: B, role: R): B & R {
  return {
    ...inherited,
    ...dropUndefined(role),
    env: { ...(inherited.env ?? {}), ...(role.env ?? {}) },
    nodeSelector: mergeMaps(inherited.nodeSelector, role.nodeSelector),
    tolerations: [...(inherited.tolerations ?? []), ...(role.tolerations ?? [])],
    podLabels: mergeMaps(inherited.podLabels, role.podLabels),
    podAnnotations: mergeMaps(inherited.podAnnotations, role.podAnnotations),
    network: mergeNetworking(inherited.network, role.network),
    nodeHealth: [...(inherited.nodeHealth ?? []), ...(role.nodeHealth ?? [])],
  };
}
