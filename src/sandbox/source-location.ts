// Turning a stack trace back into a line of the learner's file or of the spec. Each module is
// compiled with `//# sourceURL=<name>`, so its frames carry that name; `new Function` puts a header
// of its own above the body, and how many lines that header takes is measured once, not assumed.

const URL_PREFIX = 'mcp-playground/';

/** The name a module's frames carry in stack traces. */
export function sourceUrlFor(fileName: string): string {
  return URL_PREFIX + fileName.replace(/[^\w./-]/g, '_');
}

/** Compiles `body` as a function of `params`, named `url` in stack traces. */
export function compileFunction(params: readonly string[], body: string, url: string): (...args: unknown[]) => unknown {
  // Evaluating the learner's code is the point; the worker around it is the sandbox.
  return new Function(...params, `${body}\n//# sourceURL=${url}`) as (...args: unknown[]) => unknown;
}

const headerLinesByParamCount = new Map<number, number>();

/** Lines `new Function` adds above the body (2 in V8), measured with the same parameter count. */
function headerLines(paramCount: number): number {
  const known = headerLinesByParamCount.get(paramCount);
  if (known !== undefined) return known;
  const url = sourceUrlFor('__line-probe__.js');
  const params = Array.from({ length: paramCount }, (_, i) => `p${i}`);
  const stack = String(compileFunction(params, 'return new Error("probe").stack;', url)());
  const reported = firstFrameIn(stack, url)?.line;
  const lines = reported === undefined ? 0 : reported - 1;
  headerLinesByParamCount.set(paramCount, lines);
  return lines;
}

interface StackFrame {
  line: number;
  column: number;
  /** Where in the stack text the frame was found: smaller is further in. */
  index: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function firstFrameIn(stack: string, url: string): StackFrame | undefined {
  const match = new RegExp(`${escapeRegExp(url)}:(\\d+):(\\d+)`).exec(stack);
  if (!match) return undefined;
  return { line: Number(match[1]), column: Number(match[2]), index: match.index };
}

/**
 * The 1-based line, in the original file, of the innermost frame of the module compiled by
 * `compileFunction(params, …, url)` with `params.length === paramCount`.
 */
export function lineInStack(stack: string | undefined, url: string, paramCount: number): number | undefined {
  if (!stack) return undefined;
  const frame = firstFrameIn(stack, url);
  if (!frame) return undefined;
  const line = frame.line - headerLines(paramCount);
  return line >= 1 ? line : undefined;
}

/** Which of the given module urls appears first (innermost) in a stack trace. */
export function innermostOf(stack: string | undefined, urls: readonly string[]): string | undefined {
  if (!stack) return undefined;
  let best: { url: string; index: number } | undefined;
  for (const url of urls) {
    const frame = firstFrameIn(stack, url);
    if (frame && (!best || frame.index < best.index)) best = { url, index: frame.index };
  }
  return best?.url;
}
