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

/** `lint --format json` on `input`: each finding as `<rule> <message>`. */
export function lintFindings(input: string): string[] {
  const result = runCli(['lint', '--format', 'json', '-'], input);
  return JSON.parse(result.stdout).findings.map((f: any) => `${f.rule} ${f.message}`);
}
