import { Finding, finding } from '../../rules/finding';
import { optionIdLengthFinding } from '../../rules/notebooks/option-ids';
import { lengthFinding } from '../../synth/report';
import type { WorkspaceOptionProps } from '../workspace-options';

/** One option of a catalogue: its id and what the user gave for it. */
export interface CatalogueOption<O extends WorkspaceOptionProps> {
  readonly id: string;
  readonly options: O;
}

/**
 * The image or pod-config options of a WorkspaceKind: their own values (refused at once, when the
 * option is added; an id added twice is the kind's, at synth) and the option the spawner selects first. That the default and the redirects
 * name options, and that redirects do not loop, is the document rules' (notebooks/option-default,
 * notebooks/option-redirect), which judge the rendered kind as the webhook does.
 */
export class OptionCatalogue<O extends WorkspaceOptionProps> {
  private readonly entries: Array<CatalogueOption<O>> = [];

  /** @param field `imageConfig` or `podConfig`, as messages name the catalogue */
  public constructor(private readonly field: string) {}

  /** The options in the order they were added. */
  public get all(): ReadonlyArray<CatalogueOption<O>> {
    return this.entries;
  }

  /** The ids in the order they were added. */
  public get ids(): string[] {
    return this.entries.map(o => o.id);
  }

  /** What is wrong with an option on its own, or as a second use of an id; the first finding. */
  public addFinding(id: string, options: O): Finding | undefined {
    const at = `${this.field}[${id}]`;
    const length = optionIdLengthFinding(`${at}.id`, id);
    if (length) return length;
    const simple = lengthFinding(`${at}.displayName`, options.displayName ?? id, 2, 128)
      ?? (options.description !== undefined ? lengthFinding(`${at}.description`, options.description, 2, 1024) : undefined);
    if (simple) return simple;
    const labels = Object.entries(options.labels ?? {});
    if (labels.length > 32) return finding(`${at}.labels`, `${labels.length} labels`, 'expected at most 32');
    for (const [key, value] of labels) {
      if (key.length < 2 || key.length > 64) return finding(`${at}.labels`, key, 'expected label keys of 2 to 64 characters');
      const f = lengthFinding(`${at}.labels[${key}]`, value, 1, 64);
      if (f) return f;
    }
    const redirect = options.redirect;
    if (redirect) {
      const target = optionIdLengthFinding(`${at}.redirect.to`, redirect.to);
      if (target) return target;
      if (redirect.message !== undefined) return lengthFinding(`${at}.redirect.message`, redirect.message, 2, 1024);
      // The CRD keeps the level inside the message (`redirect.message.level`): a level alone has nowhere to go.
      if (redirect.level !== undefined) return finding(`${at}.redirect.level`, redirect.level.value, 'expected none without a redirect.message: the level is how the spawner shows the message');
    }
    return undefined;
  }

  /** Adds an option whose `addFinding` was undefined. */
  public add(id: string, options: O): void {
    this.entries.push({ id, options });
  }

  /** The option the spawner selects first: the given one, else the first neither hidden nor redirected, else the first. */
  public defaultId(given: string | undefined): string | undefined {
    if (given !== undefined) return given;
    return (this.entries.find(o => !o.options.hidden && !o.options.redirect) ?? this.entries[0])?.id;
  }

}
