/**
 * The CRDs' CEL rules (`x-kubernetes-validations`), parsed for the compact schemas: each rule keeps
 * its text and message and gains its parsed expression in the evaluator's form
 * (src/rules/schema/cel.ts), so the library evaluates rules without a parser at run time.
 *
 * Transition rules (those that read `oldSelf`) apply to updates only: the API server skips them on a
 * create, which is all a GitOps apply of a new object is, so they are kept marked and not parsed.
 */
import { parse } from '@bufbuild/cel';
import { CEL_FUNCTIONS, CelExpr, CelRule } from '../../src/rules/schema/cel';

/** Rewrites, in place, every `x-kubernetes-validations` of a schema tree into compact rules. */
export function compileCelRules(node: any, where: string): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    node.forEach((n, i) => compileCelRules(n, `${where}[${i}]`));
    return;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'x-kubernetes-validations') {
      node[key] = (child as any[]).map(r => compileRule(r, where));
    } else {
      compileCelRules(child, `${where}.${key}`);
    }
  }
}

function compileRule(r: { rule: string; message?: string; [other: string]: unknown }, where: string): CelRule {
  const unsupported = Object.keys(r).filter(k => k !== 'rule' && k !== 'message');
  if (unsupported.length > 0) throw new Error(`${where}: the CEL rule ${JSON.stringify(r.rule)} uses ${unsupported.join(', ')}, which the library's evaluator does not implement`);
  const message = r.message === undefined ? {} : { message: r.message };
  if (/\boldSelf\b/.test(r.rule)) return { rule: r.rule, ...message, transition: true };
  let parsed;
  try {
    parsed = parse(r.rule);
  } catch (e) {
    throw new Error(`${where}: the CEL rule ${JSON.stringify(r.rule)} does not parse: ${(e as Error).message}`);
  }
  const expr = toCompact(parsed.expr!, `${where}: ${r.rule}`);
  const reads = fieldsRead(expr);
  return { rule: r.rule, ...message, expr, ...(reads.size === 1 && ![...reads][0].startsWith('(') ? { field: [...reads][0] } : {}) };
}

/** The subexpressions of an expression. */
function children(e: CelExpr): readonly CelExpr[] {
  switch (e[0]) {
    case 'id': case 'lit': return [];
    case 'sel': case 'has': return [e[1]];
    case 'call': return e[2] === null ? e[3] : [e[2], ...e[3]];
    case 'list': return e[1];
    case 'comp': return [e[2], e[4], e[5], e[6], e[7]];
  }
}

/**
 * The fields below `self` an expression reads, as dotted paths, keeping only the longest of a chain
 * (`self.metadata.name` reads `metadata.name`, not `metadata`); `(self)` when it reads `self` itself.
 * A rule that reads one field is reported at that field, as a user would look for it.
 */
function fieldsRead(expr: CelExpr): Set<string> {
  const found = new Set<string>();
  const chain = (e: CelExpr): string[] | undefined => {
    if (e[0] === 'id') return e[1] === 'self' ? [] : undefined;
    if (e[0] === 'sel' || e[0] === 'has') {
      const below = chain(e[1]);
      return below === undefined ? undefined : [...below, e[2]];
    }
    return undefined;
  };
  const walk = (e: CelExpr): void => {
    const c = chain(e);
    if (c !== undefined) {
      found.add(c.length === 0 ? '(self)' : c.join('.'));
      return;
    }
    for (const child of children(e)) walk(child);
  };
  walk(expr);
  return found;
}

/** The evaluator's form of a parsed expression; anything it cannot evaluate is an error here. */
function toCompact(e: any, where: string): CelExpr {
  const { case: kind, value } = e.exprKind;
  switch (kind) {
    case 'identExpr': return ['id', value.name];
    case 'constExpr': return ['lit', constant(value, where)];
    case 'selectExpr': return [value.testOnly ? 'has' : 'sel', toCompact(value.operand, where), value.field];
    case 'listExpr':
      if (value.optionalIndices.length > 0) throw new Error(`${where}: optional list elements are not implemented`);
      return ['list', value.elements.map((x: any) => toCompact(x, where))];
    case 'callExpr':
      if (!CEL_FUNCTIONS.includes(value.function)) throw new Error(`${where}: the function ${value.function} is not implemented by the library's CEL evaluator`);
      return ['call', value.function, value.target ? toCompact(value.target, where) : null, value.args.map((x: any) => toCompact(x, where))];
    case 'comprehensionExpr':
      if (value.iterVar2) throw new Error(`${where}: two-variable comprehensions are not implemented`);
      return ['comp', value.iterVar, toCompact(value.iterRange, where), value.accuVar, toCompact(value.accuInit, where),
        toCompact(value.loopCondition, where), toCompact(value.loopStep, where), toCompact(value.result, where)];
    default:
      throw new Error(`${where}: ${kind} expressions are not implemented by the library's CEL evaluator`);
  }
}

function constant(c: any, where: string): string | number | boolean | null {
  const { case: kind, value } = c.constantKind;
  switch (kind) {
    case 'stringValue': case 'boolValue': case 'doubleValue': return value;
    case 'int64Value': case 'uint64Value': return Number(value);
    case 'nullValue': return null;
    default: throw new Error(`${where}: ${kind} constants are not implemented`);
  }
}
