/** `cdk8s-kubeflow rules`: its definition (the parser and the help come from it) and its run. */
import { Command } from '../base/command-line';
import { EXIT } from '../base/io';

export const RULES_COMMAND: Command = {
  name: 'rules',
  paths: false,
  options: [],
  summary: [
    'Every rule lint applies, by source (the group --rules-off names) and family, with the upstream',
    'code or behaviour it mirrors, and for a rule of some upstream versions only, those versions.',
  ],
  overview: [
    'Every rule lint applies, by source (the group --rules-off names) and family, with the',
    'upstream code or behaviour it mirrors and the upstream versions it applies to.',
  ],
  exitStatus: ['Exit status: 0 listed, 2 usage error, 3 internal error.'],
  run(_line, io) {
    // Loaded when it runs: `lint` starts without the catalogue's text.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    io.out((require('./rules') as typeof import('./rules')).rulesText());
    return EXIT.OK;
  },
};
