// Finding each test's own source in the spec, to show it beside its result. The runner knows the
// line a test was registered from (a stack frame; sucrase keeps lines, not columns), and this file
// finds the `it(…)` / `test(…)` call covering that line with a small scanner that understands
// strings, template literals, comments and (by the usual heuristic) regular expression literals.

export interface TestCall {
  /** 1-based lines of the call's first and last character. */
  startLine: number;
  endLine: number;
  /** The call's text, from `it` to its closing parenthesis, with its indentation removed. */
  code: string;
}

const TEST_FUNCTIONS = new Set(['it', 'test']);
// After these, a `/` starts a regular expression rather than dividing.
const REGEX_PRECEDERS = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', 'return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', '']);

interface Token {
  text: string;
  start: number;
  end: number;
}

/** Splits source into identifiers, punctuation and whole literals; comments are dropped. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const braceDepths: number[] = []; // template nesting: brace depth where each `${` opened
  let braceDepth = 0;
  const lastSignificant = () => tokens[tokens.length - 1]?.text ?? '';

  const readTemplate = (from: number): number => {
    // from is just after '`' or after the '}' closing a substitution; returns index after the end
    let j = from;
    while (j < source.length) {
      const c = source[j];
      if (c === '\\') j += 2;
      else if (c === '`') return j + 1;
      else if (c === '$' && source[j + 1] === '{') {
        braceDepths.push(braceDepth);
        braceDepth += 1;
        return j + 2;
      } else j += 1;
    }
    return j;
  };

  while (i < source.length) {
    const c = source[i] as string;
    const start = i;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i += 1;
    } else if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close === -1 ? source.length : close + 2;
    } else if (c === '"' || c === "'") {
      i += 1;
      while (i < source.length && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      tokens.push({ text: 'string', start, end: ++i });
    } else if (c === '`') {
      i = readTemplate(i + 1);
      tokens.push({ text: 'template', start, end: i });
    } else if (c === '}' && braceDepths.length > 0 && braceDepths[braceDepths.length - 1] === braceDepth - 1) {
      braceDepths.pop();
      braceDepth -= 1;
      i = readTemplate(i + 1);
      tokens.push({ text: 'template', start, end: i });
    } else if (c === '/' && REGEX_PRECEDERS.has(lastSignificant())) {
      let inClass = false;
      i += 1;
      while (i < source.length && source[i] !== '\n') {
        const d = source[i];
        if (d === '\\') i += 1;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        i += 1;
      }
      i += 1;
      while (i < source.length && /\w/.test(source[i] as string)) i += 1;
      tokens.push({ text: 'regex', start, end: i });
    } else if (/[\w$]/.test(c)) {
      while (i < source.length && /[\w$]/.test(source[i] as string)) i += 1;
      tokens.push({ text: source.slice(start, i), start, end: i });
    } else {
      if (c === '{') braceDepth += 1;
      else if (c === '}') braceDepth -= 1;
      i += 1;
      tokens.push({ text: c, start, end: i });
    }
  }
  return tokens;
}

/** Index of the token closing the bracket opened at `open`, or -1. */
function matchingClose(tokens: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k += 1) {
    const text = tokens[k]?.text;
    if (text === '(' || text === '[' || text === '{') depth += 1;
    else if (text === ')' || text === ']' || text === '}') {
      depth -= 1;
      if (depth === 0) return k;
    }
  }
  return -1;
}

/** Every `it(…)`, `test(…)`, `it.each(…)(…)` call in the source, in source order. */
export function findTestCalls(source: string): TestCall[] {
  const tokens = tokenize(source);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i += 1) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };

  const calls: TestCall[] = [];
  tokens.forEach((token, index) => {
    if (!TEST_FUNCTIONS.has(token.text) || tokens[index - 1]?.text === '.') return;
    let k = index + 1;
    // it.each(table) / test.skip … : member names, and one argument list for `.each`
    while (tokens[k]?.text === '.' && /^\w+$/.test(tokens[k + 1]?.text ?? '')) {
      const member = tokens[k + 1]?.text;
      k += 2;
      if (member === 'each' && tokens[k]?.text === '(') {
        const close = matchingClose(tokens, k);
        if (close === -1) return;
        k = close + 1;
      }
    }
    if (tokens[k]?.text !== '(') return;
    const close = matchingClose(tokens, k);
    if (close === -1) return;
    const end = (tokens[close] as Token).end;
    calls.push({ startLine: lineOf(token.start), endLine: lineOf(end - 1), code: dedent(source, token.start, end) });
  });
  return calls;
}

/** The innermost test call whose lines include `line`. */
export function testCallAt(calls: readonly TestCall[], line: number): TestCall | undefined {
  let best: TestCall | undefined;
  for (const call of calls) {
    if (call.startLine <= line && line <= call.endLine) {
      if (!best || call.endLine - call.startLine < best.endLine - best.startLine) best = call;
    }
  }
  return best;
}

function dedent(source: string, start: number, end: number): string {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lineStart, start))?.[0] ?? '';
  const text = source.slice(start, end);
  if (!indent) return text;
  return text
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}
