import { Size, SizeRoundingBehavior } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Finding, finding } from '../../rules/finding';
import type { Resources } from '../resources';

/*
 * Resources as Kubernetes quantities, and what makes an amount unwritable. Shared by the job
 * constructs (requests equal limits) and WorkspaceKind pod configs (separate requests and limits).
 */

/** The amounts of `resources` as typed quantities keyed by resource name. */
export function resourceQuantities(resources: Resources | undefined): { [name: string]: k8s.Quantity } {
  const amounts: { [name: string]: k8s.Quantity } = {};
  if (!resources) return amounts;
  if (resources.cpu) amounts.cpu = k8s.Quantity.fromString(resources.cpu.amount);
  if (resources.memory) amounts.memory = k8s.Quantity.fromString(sizeQuantity(resources.memory));
  if (resources.ephemeralStorage) amounts['ephemeral-storage'] = k8s.Quantity.fromString(sizeQuantity(resources.ephemeralStorage));
  if (resources.accelerator) amounts[resources.accelerator.resourceName] = k8s.Quantity.fromNumber(resources.accelerator.count);
  return amounts;
}

/**
 * What is wrong with the CPU and sizes of `resources` and a shared-memory size: CPU must be a finite
 * amount of 0 or more, and sizes whole mebibytes, which is how they are written (a smaller unit
 * would end in cdk8s's own conversion error). `prefix` names where the resources were given.
 */
export function amountFindings(resources: Resources | undefined, sharedMemory?: Size, prefix = 'resources'): Finding[] {
  const out: Finding[] = [];
  const accelerator = resources?.accelerator?._finding(`${prefix}.accelerator`);
  if (accelerator) out.push(accelerator);
  const cpu = resources?.cpu?.amount;
  if (cpu !== undefined) {
    const cores = Number(cpu.replace(/m$/, ''));
    if (!Number.isFinite(cores) || cores < 0) out.push(finding(`${prefix}.cpu`, cpu, 'expected a finite amount of CPU, 0 or more'));
  }
  const sizes: Array<[string, Size | undefined]> = [
    [`${prefix}.memory`, resources?.memory], [`${prefix}.ephemeralStorage`, resources?.ephemeralStorage], ['sharedMemory', sharedMemory],
  ];
  for (const [field, size] of sizes) {
    if (size && !wholeMebibytes(size)) {
      out.push(finding(field, `${size.toKibibytes({ rounding: SizeRoundingBehavior.NONE })}Ki`, 'expected a whole number of mebibytes, as the manifest writes sizes in Mi or Gi'));
    }
  }
  return out;
}

/** Limits at least the requests, as Kubernetes requires. */
export function limitFindings(field: string, requests: Resources | undefined, limits: Resources | undefined): Finding[] {
  if (!requests || !limits) return [];
  const out: Finding[] = [];
  const cpu = (amount: string) => (amount.endsWith('m') ? Number(amount.slice(0, -1)) / 1000 : Number(amount));
  if (requests.cpu && limits.cpu && cpu(limits.cpu.amount) < cpu(requests.cpu.amount)) {
    out.push(finding(`${field}.limits.cpu`, limits.cpu.amount, `expected at least the request (${requests.cpu.amount})`));
  }
  for (const part of ['memory', 'ephemeralStorage'] as const) {
    const r = requests[part];
    const l = limits[part];
    if (r && l && l.toMebibytes() < r.toMebibytes()) {
      out.push(finding(`${field}.limits.${part}`, sizeQuantity(l), `expected at least the request (${sizeQuantity(r)})`));
    }
  }
  return out;
}

/** Sizes as Kubernetes quantities: whole gibibytes as Gi, else mebibytes. */
export function sizeQuantity(size: Size): string {
  const mebibytes = size.toMebibytes();
  return mebibytes % 1024 === 0 ? `${mebibytes / 1024}Gi` : `${mebibytes}Mi`;
}

function wholeMebibytes(size: Size): boolean {
  try {
    size.toMebibytes();
    return true;
  } catch {
    return false;
  }
}
