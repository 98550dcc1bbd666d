/** Runs the command in this process, as `main` is called by bin/cdk8s-kubeflow, capturing its output. */
import { main } from '../../src/cli/main';

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], stdin = ''): CliResult {
  let stdout = '';
  let stderr = '';
  const status = main(args, { out: t => { stdout += t; }, err: t => { stderr += t; }, stdin: () => stdin });
  return { status, stdout, stderr };
}
