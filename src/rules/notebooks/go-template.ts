/**
 * What can be told of a Go text/template without running Go: the Notebooks controller renders each
 * WorkspaceKind extraEnv value and proxy request header as a template named "value", with one
 * function of its own (`httpPathPrefix`, taking a port id) beside the built-in ones, and with no
 * data (kubeflow/notebooks workspaces/controller/internal/helper template.go RenderGoTemplate). The
 * webhook refuses a value that fails to parse or to execute.
 *
 * Judged here, as Go's parser (text/template/parse, lex.go and parse.go) refuses them: an action
 * or comment left open, a quoted, raw or character constant left open, an empty action, a
 * character no action may hold, a function that is neither built in nor `httpPathPrefix`, a
 * variable used where none of that name is declared, `else`/`end`/`break`/`continue` where no block
 * takes them, and a block never ended. And what certainly fails when it runs: a top-level action
 * (not inside if, with, range or define, so it always runs) calling a function with a number of
 * arguments its signature does not take, giving arguments to a constant, or calling
 * `httpPathPrefix` with anything but a quoted string (see checkCall).
 *
 * Left to Go: what fails only on some branches or values at run time (a built-in such as `len` or
 * `index` given the wrong kind of value, a `template` call of a name never defined, a number too
 * large for its type, a call inside a branch that may not run). Those pass here and the webhook still refuses them.
 */

/** The functions every template has (text/template funcs.go builtins), and the controller's own. */
const FUNCTIONS = new Set([
  'and', 'call', 'html', 'index', 'slice', 'js', 'len', 'not', 'or', 'print', 'printf', 'println', 'urlquery',
  'eq', 'ge', 'gt', 'le', 'lt', 'ne', 'httpPathPrefix',
]);
/** The arguments each function takes, as [least, most] (text/template funcs.go signatures); the piped value counts. */
const ARITY: ReadonlyMap<string, readonly [number, number]> = new Map<string, readonly [number, number]>([
  ['and', [1, Infinity]], ['or', [1, Infinity]], ['not', [1, 1]], ['len', [1, 1]], ['index', [1, Infinity]], ['slice', [1, Infinity]], ['call', [1, Infinity]],
  ['printf', [1, Infinity]], ['eq', [2, Infinity]], ['ne', [2, 2]], ['lt', [2, 2]], ['le', [2, 2]], ['gt', [2, 2]], ['ge', [2, 2]], ['httpPathPrefix', [1, 1]],
]);
/** Words the parser reads as keywords, not functions. */
const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue', 'nil', 'true', 'false']);
/** Keywords that open a block `end` closes. */
const OPENERS = new Set(['if', 'range', 'with', 'define', 'block']);

type Token =
  | { kind: 'word'; text: string } // identifier or keyword
  | { kind: 'field'; text: string } // .Name, or a chain .A.B
  | { kind: 'dot' }
  | { kind: 'variable'; text: string } // $ or $name, with any field chain after it
  | { kind: 'string' } | { kind: 'number' } | { kind: 'char' }
  | { kind: 'pipe' } | { kind: 'declare' } | { kind: 'assign' } | { kind: 'comma' }
  | { kind: 'open' } | { kind: 'close' };

/** One block open while the template is read, and the variables declared in it. */
interface Scope {
  readonly keyword: string;
  readonly variables: Set<string>;
  /** Past its {{else}}: a range's else runs when there is nothing to range over, so break and continue are refused there. */
  afterElse?: boolean;
}

/** Why the template cannot be rendered, or undefined when nothing here finds a reason. */
export function goTemplateProblem(text: string): string | undefined {
  try {
    check(text);
    return undefined;
  } catch (e) {
    if (e instanceof TemplateProblem) return e.message;
    throw e;
  }
}

class TemplateProblem extends Error {}

const fail = (message: string): never => {
  throw new TemplateProblem(message);
};

function check(text: string): void {
  const scopes: Scope[] = [{ keyword: '', variables: new Set(['$']) }];
  let at = 0;
  for (;;) {
    const start = text.indexOf('{{', at);
    if (start < 0) break;
    let i = start + 2;
    // A trim marker is "-" and white space; "{{-3}}" is the number -3.
    if (text[i] === '-' && isSpace(text[i + 1])) i += 2;
    // A comment opens right after the delimiter (and its trim marker), with no space between.
    if (text.startsWith('/*', i)) {
      at = skipComment(text, i);
      continue;
    }
    const { tokens, end } = lexAction(text, i);
    at = end;
    action(tokens, scopes);
  }
  if (scopes.length > 1) fail(`unexpected EOF: {{${scopes[scopes.length - 1].keyword}}} is never closed by {{end}}`);
}

function skipComment(text: string, from: number): number {
  const close = text.indexOf('*/', from + 2);
  if (close < 0) fail('unclosed comment');
  let i = close + 2;
  if (text.startsWith(' -}}', i)) return i + 4;
  if (text.startsWith('}}', i)) return i + 2;
  return fail('comment ends before closing delimiter');
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
// Go's identifiers are Unicode letters, digits and "_".
const isAlnum = (c: string | undefined) => c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);
const isLetter = (c: string | undefined) => c !== undefined && /[\p{L}_]/u.test(c);

function lexAction(text: string, from: number): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let i = from;
  let depth = 0;
  for (;;) {
    if (i >= text.length) fail('unclosed action');
    const c = text[i];
    if (text.startsWith('}}', i) || (c === ' ' && text.startsWith(' -}}', i))) {
      if (depth > 0) fail('unclosed left paren');
      return { tokens, end: i + (c === ' ' ? 4 : 2) };
    }
    if (isSpace(c)) { i++; continue; }
    if (c === '"') {
      i = skipQuoted(text, i, '"', 'unterminated quoted string');
      tokens.push({ kind: 'string' });
    } else if (c === '`') {
      const close = text.indexOf('`', i + 1);
      if (close < 0) fail('unterminated raw quoted string');
      i = close + 1;
      tokens.push({ kind: 'string' });
    } else if (c === '\'') {
      i = skipQuoted(text, i, '\'', 'unterminated character constant');
      tokens.push({ kind: 'char' });
    } else if (c === '|') {
      i++;
      tokens.push({ kind: 'pipe' });
    } else if (c === '(') {
      i++; depth++;
      tokens.push({ kind: 'open' });
    } else if (c === ')') {
      if (depth === 0) fail('unexpected right paren');
      i++; depth--;
      tokens.push({ kind: 'close' });
    } else if (c === ',') {
      i++;
      tokens.push({ kind: 'comma' });
    } else if (c === ':' && text[i + 1] === '=') {
      i += 2;
      tokens.push({ kind: 'declare' });
    } else if (c === '=') {
      i++;
      tokens.push({ kind: 'assign' });
    } else if (c === '$') {
      let j = i + 1;
      while (isAlnum(text[j])) j++;
      const name = text.slice(i, j);
      j = skipFieldChain(text, j);
      tokens.push({ kind: 'variable', text: name });
      i = j;
    } else if (c === '.') {
      if (isLetter(text[i + 1])) {
        const j = skipFieldChain(text, i);
        tokens.push({ kind: 'field', text: text.slice(i, j) });
        i = j;
      } else if (/[0-9]/.test(text[i + 1] ?? '')) {
        i = skipNumber(text, i);
        tokens.push({ kind: 'number' });
      } else {
        i++;
        tokens.push({ kind: 'dot' });
      }
    } else if (/[0-9+-]/.test(c)) {
      i = skipNumber(text, i);
      tokens.push({ kind: 'number' });
    } else if (isLetter(c)) {
      let j = i;
      while (isAlnum(text[j])) j++;
      tokens.push({ kind: 'word', text: text.slice(i, j) });
      i = skipFieldChain(text, j);
    } else {
      fail(`unrecognized character in action: ${JSON.stringify(c)}`);
    }
  }
}

function skipQuoted(text: string, from: number, quote: string, unterminated: string): number {
  let i = from + 1;
  for (;;) {
    const c = text[i];
    if (c === undefined || c === '\n') return fail(unterminated);
    if (c === '\\') { i += 2; continue; }
    if (c === quote) return i + 1;
    i++;
  }
}

function skipNumber(text: string, from: number): number {
  let i = from;
  if (text[i] === '+' || text[i] === '-') i++;
  if (!/[0-9.]/.test(text[i] ?? '')) fail(`bad number syntax: ${JSON.stringify(text.slice(from, i + 1))}`);
  while (/[0-9A-Za-z_.+-]/.test(text[i] ?? '') && !(text[i] === '-' && !/[eEpP]/.test(text[i - 1]))
    && !(text[i] === '+' && !/[eEpP]/.test(text[i - 1]))) i++;
  return i;
}

function skipFieldChain(text: string, from: number): number {
  let i = from;
  while (text[i] === '.' && isLetter(text[i + 1])) {
    i++;
    while (isAlnum(text[i])) i++;
  }
  return i;
}

/** One action's tokens: its keyword (if any) and its pipeline, with the blocks open around it. */
function action(tokens: Token[], scopes: Scope[]): void {
  if (tokens.length === 0) fail('missing value for command');
  const first = tokens[0];
  const keyword = first.kind === 'word' && KEYWORDS.has(first.text) && !['nil', 'true', 'false'].includes(first.text) ? first.text : undefined;
  const inRange = scopes.some(s => s.keyword === 'range' && !s.afterElse);
  const topLevel = scopes.length === 1;
  if (keyword === 'end') {
    if (tokens.length > 1) fail('unexpected token in end');
    if (scopes.length === 1) fail('unexpected {{end}}');
    scopes.pop();
    return;
  }
  if (keyword === 'else') {
    const open = scopes[scopes.length - 1].keyword;
    if (!['if', 'with', 'range'].includes(open)) fail('unexpected {{else}}');
    const chained = tokens[1]?.kind === 'word' && (tokens[1].text === 'if' || tokens[1].text === 'with') ? tokens[1].text : undefined;
    if (tokens.length > 1 && !chained) fail('unexpected token in else');
    // "else if" and "else with" open no block of their own: the first block's end closes them. The
    // variables of the block stay visible after else (Go's parser drops them at the end).
    scopes[scopes.length - 1].afterElse = true;
    if (chained) pipeline(tokens.slice(2), scopes, false);
    return;
  }
  if (keyword === 'break' || keyword === 'continue') {
    if (!inRange) fail(`{{${keyword}}} outside {{range}}`);
    if (tokens.length > 1) fail(`unexpected token in {{${keyword}}}`);
    return;
  }
  if (keyword === 'define' || keyword === 'template' || keyword === 'block') {
    if (tokens[1]?.kind !== 'string') fail(`expected a quoted template name after ${keyword}`);
    if (keyword === 'define') {
      if (!topLevel) fail('unexpected {{define}}: only at the top level');
      if (tokens.length > 2) fail('unexpected token in define clause');
    } else if (tokens.length > 2) {
      pipeline(tokens.slice(2), scopes, topLevel);
    }
    // A defined template sees only its own variables, and only "$".
    if (OPENERS.has(keyword)) scopes.push({ keyword, variables: new Set(keyword === 'define' ? ['$'] : []) });
    return;
  }
  if (keyword !== undefined && OPENERS.has(keyword)) {
    // The block's pipeline runs when the block is reached; its variables are the block's.
    const scope: Scope = { keyword, variables: new Set() };
    pipeline(tokens.slice(1), [...scopes, scope], topLevel);
    scopes.push(scope);
    return;
  }
  pipeline(tokens, scopes, topLevel);
}

/** A pipeline: declarations, then commands joined by `|`. `runs` when it certainly executes. */
function pipeline(tokens: Token[], scopes: Scope[], runs: boolean): void {
  if (tokens.length === 0) fail('missing value for command');
  let rest = tokens;
  const declaration = rest.findIndex(t => t.kind === 'declare' || t.kind === 'assign');
  const declared: string[] = [];
  if (declaration > 0 && rest.slice(0, declaration).every(t => t.kind === 'variable' || t.kind === 'comma')) {
    const names = rest.slice(0, declaration).filter((t): t is { kind: 'variable'; text: string } => t.kind === 'variable').map(t => t.text);
    if (rest[declaration].kind === 'assign') names.forEach(n => known(n, scopes));
    else declared.push(...names);
    rest = rest.slice(declaration + 1);
    if (rest.length === 0) fail('missing value for command');
  }
  const commands: Token[][] = [[]];
  for (const t of rest) {
    if (t.kind === 'pipe') commands.push([]);
    else commands[commands.length - 1].push(t);
  }
  // Go drops an empty stage after the last "|"; one before the first is an error.
  if (commands[0].length === 0) fail('unexpected "|" in command');
  commands.forEach((command, i) => {
    if (command.length === 0) return;
    const head = command[0];
    if (i > 0 && (['string', 'number', 'char', 'dot'].includes(head.kind) || (head.kind === 'word' && ['nil', 'true', 'false'].includes(head.text)))) {
      fail(`non executable command in pipeline stage ${i + 1}`);
    }
    command.forEach(t => {
      if (t.kind === 'word' && !KEYWORDS.has(t.text) && !FUNCTIONS.has(t.text)) fail(`function "${t.text}" not defined`);
      if (t.kind === 'word' && KEYWORDS.has(t.text) && !['nil', 'true', 'false'].includes(t.text)) fail(`unexpected <${t.text}> in command`);
      if (t.kind === 'variable') known(t.text, scopes);
      if (t.kind === 'declare' || t.kind === 'assign' || t.kind === 'comma') fail('unexpected declaration or comma in command');
    });
    if (command[0].kind === 'word' && command[0].text === 'nil' && command.length === 1) fail('nil is not a command');
    if (runs) checkCall(command, i > 0);
  });
  for (const name of declared) scopes[scopes.length - 1].variables.add(name);
}

function known(name: string, scopes: Scope[]): void {
  if (!scopes.some(s => s.variables.has(name))) fail(`undefined variable "${name}"`);
}

/**
 * `httpPathPrefix` called as a command: exactly one argument, a quoted string. Its parameter is the
 * controller's PortId, a string type of its own: Go converts a string constant to it, but a string
 * computed at run time (a variable, a piped value, a function's result) has the type string and is
 * refused, and with no data the dot and its fields are no value at all.
 */
function checkCall(command: Token[], piped: boolean): void {
  const head = command[0];
  const constant = ['string', 'number', 'char', 'dot'].includes(head.kind) || (head.kind === 'word' && ['nil', 'true', 'false'].includes(head.text));
  if (constant && command.length > 1) fail('can\'t give argument to non-function');
  const arity = head.kind === 'word' ? ARITY.get(head.text) : undefined;
  if (head.kind !== 'word' || arity === undefined) return;
  const args: Token[][] = [];
  let depth = 0;
  for (const t of command.slice(1)) {
    if (depth === 0) args.push([]);
    args[args.length - 1].push(t);
    if (t.kind === 'open') depth++;
    if (t.kind === 'close') depth--;
  }
  const count = args.length + (piped ? 1 : 0);
  const [least, most] = arity;
  if (count < least || count > most) {
    const want = least === most ? `${least}` : `at least ${least}`;
    fail(`wrong number of args for ${head.text}: want ${want}${head.text === 'httpPathPrefix' ? ' (a port id)' : ''} got ${count}`);
  }
  if (head.text !== 'httpPathPrefix') return;
  const arg = piped ? undefined : args[0];
  if (arg?.length === 1 && arg[0].kind === 'string') return;
  const given = arg === undefined ? 'a piped value'
    : arg.length > 1 ? 'a computed value'
      : arg[0].kind === 'number' || arg[0].kind === 'char' ? 'a number'
        : arg[0].kind === 'word' && (arg[0].text === 'true' || arg[0].text === 'false') ? 'a boolean'
          : arg[0].kind === 'word' && arg[0].text === 'nil' ? 'nil'
            : arg[0].kind === 'dot' || arg[0].kind === 'field' ? 'no value (the template has no data)'
              : arg[0].kind === 'variable' ? 'a variable' : 'a computed value';
  fail(`httpPathPrefix takes a port id written as a quoted string, given ${given}`);
}
