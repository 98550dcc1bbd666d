import { Duration, Size } from 'cdk8s';
import { refuseValue } from './internal/parse-value';
import { guardExports } from '../boundary/install';

/**
 * Reads the cdk8s values a configuration file holds as text, for template libraries that build
 * props from JSON or YAML: sizes (`16Gi`) and durations (`90m`, `1h30m`, `1d`). A value the
 * library cannot read is refused at once, naming the configuration key when one is given and
 * showing the form it expects. The enum-like classes have a `parse` of their own
 * (`RestartPolicy.parse('OnFailure')`), and accelerators `Accelerator.parse`.
 */
export class Parse {
  /**
   * A size written with a binary unit, as Kubernetes quantities write memory: `512Mi`, `16Gi`,
   * `1.5Ti`. Decimal units (`16G`) are refused with the binary spelling suggested, since cdk8s
   * sizes are binary.
   *
   * @param value a number and one of Ki, Mi, Gi, Ti or Pi
   * @param key the configuration key the value came from, named in the error (such as `resources.memory`)
   */
  public static size(value: string, key?: string): Size {
    const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi)$/.exec(value);
    if (match) {
      const amount = Number(match[1]);
      switch (match[2]) {
        case 'Ki': return Size.kibibytes(amount);
        case 'Mi': return Size.mebibytes(amount);
        case 'Gi': return Size.gibibytes(amount);
        case 'Ti': return Size.tebibytes(amount);
        default: return Size.pebibyte(amount);
      }
    }
    // 16G, 16GB, 16gi, "16 Gi": the binary unit the writer most likely meant.
    const loose = /^(\d+(?:\.\d+)?)\s*([KMGTP])(?:i|B|iB)?$/i.exec(value.trim());
    const guess = loose ? `: did you mean "${loose[1]}${loose[2].toUpperCase()}i"?` : '';
    return refuseValue('Parse.size', key, value, `expected a number with a binary unit Ki, Mi, Gi, Ti or Pi, such as "512Mi" or "16Gi"${guess}`);
  }

  /**
   * A duration written as whole numbers of days, hours, minutes and seconds, largest first
   * (`30s`, `90m`, `1h30m`, `1d`), or in ISO 8601 (`PT1H30M`).
   *
   * @param value such as `90m`, `1h30m` or `1d`
   * @param key the configuration key the value came from, named in the error (such as `runPolicy.ttlAfterFinished`)
   */
  public static duration(value: string, key?: string): Duration {
    const seconds = compactSeconds(value);
    if (seconds !== undefined) return inLargestUnit(seconds);
    if (/^P/.test(value)) {
      try {
        return Duration.parse(value);
      } catch {
        // refused below, with the compact form
      }
    }
    const squeezed = value.replace(/\s+/g, '').toLowerCase();
    const guess = squeezed !== value && compactSeconds(squeezed) !== undefined ? `: did you mean "${squeezed}"?` : '';
    return refuseValue('Parse.duration', key, value,
      `expected whole numbers with d, h, m or s, largest first, such as "90m", "1h30m" or "1d" (or ISO 8601 such as "PT1H30M")${guess}`);
  }

  private constructor() {}
}

/** The seconds of `1d2h3m4s` (each part optional, at least one), or undefined. */
function compactSeconds(value: string): number | undefined {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match || value === '') return undefined;
  const [d, h, m, s] = match.slice(1).map(part => Number(part ?? 0));
  return ((d * 24 + h) * 60 + m) * 60 + s;
}

/** A cdk8s Duration in the largest unit that holds `seconds` whole, so it reads as written. */
function inLargestUnit(seconds: number): Duration {
  if (seconds > 0 && seconds % 86400 === 0) return Duration.days(seconds / 86400);
  if (seconds > 0 && seconds % 3600 === 0) return Duration.hours(seconds / 3600);
  if (seconds > 0 && seconds % 60 === 0) return Duration.minutes(seconds / 60);
  return Duration.seconds(seconds);
}

// The boundary checks on this module's classes, installed as it loads (see ../boundary/install.ts).
guardExports(exports);
