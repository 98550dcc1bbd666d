import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { refuseValue } from './internal/parse-value';

/**
 * Reads the values a configuration file holds as text, for template libraries that build props
 * from JSON or YAML: CPU (`500m`, `2`), sizes of memory and storage (`16Gi`), counts (`4`) and
 * durations (`90m`, `1h30m`, `1d`). A value the library cannot read is refused at once, naming the
 * configuration key when one is given and showing the form it expects, with the closest spelling
 * when there is one. The enum-like classes have a `parse` of their own
 * (`RestartPolicy.parse('OnFailure')`), and accelerators `Accelerator.parse`. To report every
 * refused value of a config together rather than the first, read it through a `ConfigReader`.
 */
export class Parse {
  /**
   * An amount of CPU as Kubernetes writes it: cores (`2`, `1.5`, `0.25`) or millicores (`500m`),
   * as text or as the number a YAML file gives for `cpu: 2`. The manifest keeps the spelling:
   * `500m` is written as `500m`, `1.5` as `1.5`. Kubernetes counts CPU in whole millicores, so a
   * finer amount (`0.5m`, `1.0005`) is refused rather than rounded, as are negative amounts and
   * other units.
   *
   * @param value such as `500m`, `2` or `1.5` (a string or a number)
   * @param key the configuration key the value came from, named in the error (such as `resources.cpu`)
   */
  public static cpu(value: any, key?: string): kplus.Cpu {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text === 'string') {
      const cpu = exactCpu(text);
      if (cpu) return cpu;
    }
    const guess = typeof text === 'string' ? cpuGuess(text) : undefined;
    return refuseValue('Parse.cpu', key, value,
      `expected cores such as "2" or "1.5", or whole millicores such as "500m" (0 or more, at most 3 decimals of a core)${guess === undefined ? '' : `: did you mean ${JSON.stringify(guess)}?`}`);
  }

  /**
   * A whole number such as a count of workers, as a number (`workers: 4` in YAML) or as text of
   * digits (`"4"`), no smaller than `minimum`.
   *
   * @param value a whole number, or its digits as text
   * @param key the configuration key the value came from, named in the error (such as `workers`)
   * @param minimum the smallest count allowed; 0 when not given
   */
  public static count(value: any, key?: string, minimum?: number): number {
    const min = minimum ?? 0;
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
    if (n !== undefined && Number.isSafeInteger(n) && n >= min) return n;
    // " 4", "4.0", "+4": the whole number the writer most likely meant.
    const loose = typeof value === 'string' && /^\s*\+?\d+(\.0*)?\s*$/.test(value) ? Number(value.trim()) : undefined;
    const guess = loose !== undefined && loose >= min ? `: did you mean ${JSON.stringify(String(loose))}?` : '';
    return refuseValue('Parse.count', key, value, `expected a whole number of ${min} or more${guess}`);
  }


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

/** The Cpu of `2`, `1.5` or `500m`, written as given; undefined for anything else. */
function exactCpu(text: string): kplus.Cpu | undefined {
  const millis = /^(\d+)m$/.exec(text);
  if (millis) return kplus.Cpu.millis(Number(millis[1]));
  // At most three decimals: a thousandth of a core is Kubernetes' smallest amount of CPU.
  if (/^(\d+(\.\d{1,3})?|\.\d{1,3})$/.test(text)) return kplus.Cpu.units(Number(text));
  return undefined;
}

/**
 * The CPU the writer of a refused value most likely meant: without spaces or a sign (`500 m`, `-1`),
 * with a lower-case m (`500M`, which Kubernetes reads as 500 million cores), cores without the m of
 * a fraction of a millicore (`0.5m` is half a thousandth of a core), rounded up to a millicore, or
 * the number before a word (`2 cores`).
 */
function cpuGuess(text: string): string | undefined {
  const squeezed = text.replace(/\s+/g, '').replace(/^[-+]/, '');
  if (exactCpu(squeezed)) return squeezed;
  const match = /^(\d+(?:\.\d+)?|\.\d+)([a-z]*)$/i.exec(squeezed);
  if (!match) return undefined;
  const [, number, unit] = match;
  if (/^m(i|illi(cores?)?)?$/i.test(unit)) {
    // Millicores: whole ones, else the amount was meant in cores.
    return /^\d+$/.test(number) ? `${number}m` : exactCpu(number) ? number : `${Math.ceil(Number(number))}m`;
  }
  if (unit === '' || /^(cores?|cpus?|c|vcpus?)$/i.test(unit)) {
    // More than three decimals: up to the next millicore, as Kubernetes would round it.
    return exactCpu(number) ? number : `${Math.ceil(Number(number) * 1000)}m`;
  }
  return undefined;
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
