import * as fs from 'fs';
import * as path from 'path';
import { App, AppProps, Chart, Names, YamlOutputType } from 'cdk8s';

/**
 * A cdk8s `App` whose output files keep their names when charts start to depend on each other.
 *
 * cdk8s 2.x writes each chart to `<chart>.k8s.yaml`, until any chart depends on another
 * (`chart.addDependency(other)`, or a construct that depends on one in another chart). From then on
 * it numbers every file in dependency order, `0000-<chart>.k8s.yaml`, unrelated charts included: in
 * a GitOps repository one new dependency renames every file, a delete and an add of everything,
 * and a later dependency can renumber them again.
 *
 * This app writes what `App` writes, then gives every chart its plain name back, `<chart>.k8s.yaml`
 * (a folder `<chart>/` with `YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE`). The content of each
 * file is untouched: objects stay in dependency order within their chart. The order across charts
 * was only ever in the numbers; GitOps tools do not read it from file names (Argo CD orders by sync
 * wave, then kind; Flux applies CRDs and Namespaces first and the rest together, retrying what
 * failed), so see docs/own-repo.md for keeping an order that matters.
 *
 * @example
 * const app = new StableFileNamesApp();
 * const runtimes = new Chart(app, 'runtimes');
 * const jobs = new Chart(app, 'jobs');
 * jobs.addDependency(runtimes);
 * app.synth(); // dist/runtimes.k8s.yaml and dist/jobs.k8s.yaml, as without the dependency
 */
export class StableFileNamesApp extends App {
  /**
   * @param props the same as `App`'s: `outdir`, `outputFileExtension`, `yamlOutputType` and the others
   */
  constructor(props: AppProps = {}) {
    super(props);
  }

  /** Synthesizes every chart, as `App.synth()` does, into files named after the charts alone. */
  public synth(): void {
    super.synth();
    if (this.yamlOutputType !== YamlOutputType.FILE_PER_CHART && this.yamlOutputType !== YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE) return;
    const charts = this.charts;
    // cdk8s numbers the files when synth() found a chart depending on another chart (it records
    // those as dependencies between the charts themselves); otherwise the names are plain already.
    if (!charts.some(c => c.node.dependencies.some(d => d instanceof Chart))) return;
    const extension = this.yamlOutputType === YamlOutputType.FILE_PER_CHART ? this.outputFileExtension : '';
    // cdk8s numbers the charts in this order (its topological order, the same after synth()).
    charts.forEach((chart: Chart, index: number) => {
      const name = Names.toDnsLabel(chart);
      const numbered = path.join(this.outdir, `${index.toString().padStart(4, '0')}-${name}${extension}`);
      const plain = path.join(this.outdir, `${name}${extension}`);
      fs.rmSync(plain, { recursive: true, force: true });
      fs.renameSync(numbered, plain);
    });
  }
}
