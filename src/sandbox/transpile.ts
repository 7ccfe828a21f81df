// Learner TypeScript → CommonJS that `new Function` can run. Sucrase only strips types and rewrites
// imports (no type checking: the editor does that), which is fast enough to run on every click and
// keeps every line where it was, so a stack trace line is a line of the learner's file.

import { transform } from 'sucrase';

export interface TranspileError {
  message: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
}

export type TranspileResult = { ok: true; code: string } | { ok: false; error: TranspileError };

export function transpile(source: string, filePath = 'learner.ts'): TranspileResult {
  try {
    const { code } = transform(source, {
      transforms: ['typescript', 'imports'],
      filePath,
      // Keep class fields, optional chaining etc. as written: every target engine runs them, and
      // the learner's code then behaves exactly as it reads.
      disableESTransforms: true,
    });
    return { ok: true, code };
  } catch (error) {
    return { ok: false, error: toTranspileError(error) };
  }
}

function toTranspileError(error: unknown): TranspileError {
  if (!(error instanceof Error)) return { message: String(error) };
  // Sucrase words it "Error transforming <file>: <what> (line:column)" and also gives `loc`, with
  // both numbers 1-based (its locationForIndex starts columns at 1).
  const message = error.message.replace(/^Error transforming [^:]*: /, '').replace(/\s*\(\d+:\d+\)$/, '');
  const loc = (error as { loc?: { line?: unknown; column?: unknown } }).loc;
  if (loc && typeof loc.line === 'number' && typeof loc.column === 'number') {
    return { message, line: loc.line, column: loc.column };
  }
  return { message };
}
