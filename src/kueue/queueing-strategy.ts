import { parseKnown } from '../common/internal/parse-value';

/** The order a ClusterQueue admits its jobs in (`queueingStrategy`). */
export class QueueingStrategy {
  /**
   * By priority, then creation time; a job that does not fit does not hold back younger ones that
   * do (Kueue's default).
   */
  public static readonly BEST_EFFORT_FIFO = new QueueingStrategy('BestEffortFIFO');
  /** By priority, then creation time; the job at the head waits until it fits, and so do all behind it. */
  public static readonly STRICT_FIFO = new QueueingStrategy('StrictFIFO');

  /**
   * The QueueingStrategy a configuration file names, as Kueue writes it (`BestEffortFIFO`,
   * `StrictFIFO`), refused at once otherwise.
   *
   * @param value the strategy's name
   * @param key the configuration key the value came from, named in the error (such as `queueingStrategy`)
   */
  public static parse(value: string, key?: string): QueueingStrategy {
    return parseKnown('QueueingStrategy.parse', value, key,
      [['BestEffortFIFO', QueueingStrategy.BEST_EFFORT_FIFO], ['StrictFIFO', QueueingStrategy.STRICT_FIFO]], 'the strategies Kueue v0.15.2 knows');
  }

  private constructor(
    /** The value Kueue reads. */
    public readonly value: string) {}
}
