/** The order a ClusterQueue admits its jobs in (`queueingStrategy`). */
export class QueueingStrategy {
  /**
   * By priority, then creation time; a job that does not fit does not hold back younger ones that
   * do (Kueue's default).
   */
  public static readonly BEST_EFFORT_FIFO = new QueueingStrategy('BestEffortFIFO');
  /** By priority, then creation time; the job at the head waits until it fits, and so do all behind it. */
  public static readonly STRICT_FIFO = new QueueingStrategy('StrictFIFO');

  private constructor(
    /** The value Kueue reads. */
    public readonly value: string) {}
}
