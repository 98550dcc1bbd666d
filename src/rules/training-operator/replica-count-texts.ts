/**
 * The texts of the replica counts that training-operator/replica-count (replicas.ts) and the constructs
 * (DistributedPyTorch, ParameterServerTF, DistributedPaddle) share, so that a job written by hand
 * and one built with the library read alike. Each follows `expected `. A module of its own, with
 * no imports, so that the constructs can use the texts without loading the rules.
 */
/** A replica count below 0 (the constructs' floor of every count). */
export const NON_NEGATIVE = 'a whole number of 0 or more';
/** An elastic PyTorchJob without workers. */
export const ELASTIC_WORKERS = 'at least 1 for an elastic job, which runs workers only';
/** A PyTorchJob Worker written with fewer than one replica. */
export const PYTORCH_WORKERS = 'at least 1; the operator refuses a Worker written with fewer replicas (leave the Worker out instead)';
/** A TFJob with neither Chief nor Master nor workers. */
export const TF_WORKERS = 'at least 1 when there is no chief or master: the Chief, else worker 0, decides when the job succeeds';
/** A PaddleJob whose Master (its parameter servers) has no pods. */
export const PADDLE_PARAMETER_SERVERS = 'at least 1 in parameter-server mode; parameter server 0 is the rendezvous endpoint';
/** A PaddleJob without a trainer. */
export const PADDLE_WORKERS = 'at least 1; a PaddleJob needs a trainer, and in collective mode worker 0 is the rendezvous endpoint';
