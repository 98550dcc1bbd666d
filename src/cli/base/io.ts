/** Where the command writes and reads, and the exit statuses it returns. */
import * as fs from 'fs';

/** Where the command writes and reads; the process's streams unless a test gives its own. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly stdin: () => string;
}

export const PROCESS_IO: Io = {
  out: t => process.stdout.write(t),
  err: t => process.stderr.write(t),
  stdin: () => fs.readFileSync(0, 'utf8'),
};

/** The exit statuses of the command. */
export const EXIT = {
  /** Nothing found. */
  OK: 0,
  /** Findings (lint), or a document that is not YAML (plan), or not a Kubernetes object (convert). */
  FINDINGS: 1,
  /** The command line or a path it names is wrong. */
  USAGE: 2,
  /** Anything else that was thrown: a fault of the command, not of the input's content. */
  INTERNAL: 3,
} as const;
