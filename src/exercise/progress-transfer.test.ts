import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExerciseProgress, StoredProgress } from './progress-data.ts';
import { createProgressFile, parseProgressFile, PROGRESS_FILE_LIMITS, progressFileName } from './progress-transfer.ts';
import { applyImport, planImport } from './progress-transfer-plan.ts';

const META = { appVersion: '0.1.0', exportedAt: new Date('2026-11-30T08:15:00Z') };

const progressArbitrary: fc.Arbitrary<StoredProgress> = fc
  .dictionary(
    fc.stringMatching(/^[0-9]{2}-[a-z]{1,12}$/),
    fc.record(
      {
        code: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), fc.constant('// 中文注释 🧪\r\n\u2028\u0000')),
        completed: fc.boolean(),
        completedAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
        hintsRevealed: fc.integer({ min: 0, max: PROGRESS_FILE_LIMITS.hints }),
        referenceUsed: fc.constant(true),
      },
      { requiredKeys: ['completed', 'hintsRevealed'] },
    ),
    { maxKeys: 8 },
  )
  .map((exercises) => ({ version: 1 as const, exercises: exercises as Record<string, ExerciseProgress> }));

/** What survives storage: defaults (no code, not completed, 0 hints) are not written. */
function normalised(progress: StoredProgress): StoredProgress {
  const exercises: Record<string, ExerciseProgress> = {};
  for (const [id, entry] of Object.entries(progress.exercises)) {
    if (entry.code === undefined && !entry.completed && entry.completedAt === undefined && entry.hintsRevealed === 0 && entry.referenceUsed !== true) continue;
    exercises[id] = entry;
  }
  return { version: 1, exercises };
}

function refusal(text: string) {
  const outcome = parseProgressFile(text);
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.problem;
}

const validFile = () => JSON.parse(createProgressFile({ version: 1, exercises: { '01-jsonrpc': { code: 'x', completed: true, hintsRevealed: 2 } } }, META));

describe('progress file', () => {
  it('round-trips any progress (code in any script, emoji, CRLF, NUL) through export and import', () => {
    fc.assert(
      fc.property(progressArbitrary, (progress) => {
        const text = createProgressFile(progress, META);
        const outcome = parseProgressFile(text, new TextEncoder().encode(text).byteLength);
        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        expect(outcome.file.progress).toEqual(normalised(progress));
        expect(outcome.file).toMatchObject({ format: 'mcp-playground-progress', formatVersion: 1, appVersion: '0.1.0', exportedAt: '2026-11-30T08:15:00.000Z' });
      }),
      { numRuns: 200 },
    );
  });

  it('is named after the local day', () => {
    expect(progressFileName(new Date(2026, 0, 5, 23, 59))).toBe('mcp-playground-progress-2026-01-05.json');
  });

  it('refuses a file that is not JSON, not ours, newer, or too large, and says which', () => {
    expect(refusal('{"format": "mcp-playground-progress",')).toMatchObject({ reason: 'not-json' });
    expect(refusal('')).toMatchObject({ reason: 'not-json' });
    expect(refusal('[1, 2, 3]')).toEqual({ reason: 'not-ours' });
    expect(refusal('{"version": 1, "exercises": {}}')).toEqual({ reason: 'not-ours' }); // the storage form, not a file
    expect(refusal(JSON.stringify({ ...validFile(), formatVersion: 2 }))).toEqual({ reason: 'newer-version', version: 2 });
    expect(refusal(JSON.stringify({ ...validFile(), progress: { version: 7, exercises: {} } }))).toEqual({ reason: 'newer-version', version: 7 });
    expect(parseProgressFile('{}', PROGRESS_FILE_LIMITS.fileBytes + 1)).toEqual({ ok: false, problem: { reason: 'too-large', size: PROGRESS_FILE_LIMITS.fileBytes + 1, limit: PROGRESS_FILE_LIMITS.fileBytes } });
  });

  it('names the corrupt field', () => {
    const withEntry = (entry: unknown, id = '01-jsonrpc') => {
      const file = validFile();
      file.progress.exercises = { [id]: entry };
      return JSON.stringify(file);
    };
    expect(refusal(withEntry({ code: 42 }))).toEqual({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].code', expected: 'text' });
    expect(refusal(withEntry({ completed: 'yes' }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].completed' });
    expect(refusal(withEntry({ hintsRevealed: -1 }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].hintsRevealed' });
    expect(refusal(withEntry({ referenceUsed: 'yes' }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].referenceUsed' });
    expect(refusal(withEntry({ hintsShown: [1, 1] }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].hintsShown' });
    expect(refusal(withEntry({ hintsRevealed: 1.5 }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].hintsRevealed' });
    expect(refusal(withEntry({ completedAt: 'yesterday' }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].completedAt' });
    expect(refusal(withEntry({ code: 'x'.repeat(PROGRESS_FILE_LIMITS.codeChars + 1) }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].code' });
    expect(refusal(withEntry('not an object'))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"]' });
    expect(refusal(withEntry({}, '__proto__'))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises["__proto__"]' });
    expect(refusal(withEntry({}, '../etc'))).toMatchObject({ reason: 'bad-field' });
    expect(refusal(JSON.stringify({ ...validFile(), exportedAt: 3 }))).toMatchObject({ reason: 'bad-field', field: 'exportedAt' });
    expect(refusal(JSON.stringify({ ...validFile(), formatVersion: '1' }))).toMatchObject({ reason: 'bad-field', field: 'formatVersion' });
    expect(refusal(JSON.stringify({ ...validFile(), progress: { version: 1, exercises: [] } }))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises' });
    const many = validFile();
    many.progress.exercises = Object.fromEntries(Array.from({ length: PROGRESS_FILE_LIMITS.exercises + 1 }, (_, i) => [`e${i}`, {}]));
    expect(refusal(JSON.stringify(many))).toMatchObject({ reason: 'bad-field', field: 'progress.exercises' });
  });

  it('reads a file an editor saved with a byte-order mark', () => {
    expect(parseProgressFile(`\uFEFF${createProgressFile({ version: 1, exercises: {} }, META)}`).ok).toBe(true);
  });
});

const entry = (fields: Partial<ExerciseProgress>): ExerciseProgress => ({ completed: false, hintsRevealed: 0, ...fields });
const progress = (exercises: Record<string, ExerciseProgress>): StoredProgress => ({ version: 1, exercises });

describe('import plan', () => {
  const known = ['01-a', '02-b', '03-c', '04-d'];
  const mine = progress({
    '01-a': entry({ code: 'mine a', completed: true, completedAt: '2026-01-02T00:00:00.000Z', hintsRevealed: 2 }),
    '02-b': entry({ code: 'same' }),
    '03-c': entry({ hintsRevealed: 1 }),
  });
  const file = progress({
    '01-a': entry({ code: 'file a', hintsRevealed: 1 }),
    '02-b': entry({ code: 'same' }),
    '03-c': entry({ code: 'file c', completed: true, completedAt: '2026-03-01T00:00:00.000Z', hintsRevealed: 3 }),
    '99-newer': entry({ code: 'from a newer playground' }),
  });

  it('lists, per exercise, what would change, and whether replace would lose code', () => {
    const plan = planImport(mine, file, known);
    expect(plan.exercises).toEqual([
      { id: '01-a', known: true, changes: ['code-differs', 'completed-removed', 'hints-fewer'] },
      { id: '03-c', known: true, changes: ['code-added', 'completed-added', 'hints-more'] },
      { id: '99-newer', known: false, changes: ['code-added'] },
    ]);
    expect(plan.unchanged).toBe(1);
    expect(plan.replaceLosesCode).toBe(true);
    expect(plan.modesAgree).toBe(false);
    expect(planImport(progress({}), file, known)).toMatchObject({ replaceLosesCode: false, modesAgree: true });
    expect(planImport(mine, progress({}), known).exercises.map((p) => p.changes)).toEqual([['code-removed', 'completed-removed', 'hints-fewer'], ['code-removed'], ['hints-fewer']]);
  });

  it('merge keeps all of the learner’s code and marks, adds the file’s where they had nothing', () => {
    const merged = applyImport(mine, file, 'merge');
    expect(merged.exercises['01-a']).toEqual(entry({ code: 'mine a', completed: true, completedAt: '2026-01-02T00:00:00.000Z', hintsRevealed: 2 }));
    expect(merged.exercises['03-c']).toEqual(entry({ code: 'file c', completed: true, completedAt: '2026-03-01T00:00:00.000Z', hintsRevealed: 3 }));
    expect(merged.exercises['99-newer']?.code).toBe('from a newer playground');
  });

  it('merge keeps every hint either side opened, the learner’s first', () => {
    const mine = { version: 1 as const, exercises: { a: entry({ hintsRevealed: 2, hintsShown: [3, 1] }) } };
    const theirs = { version: 1 as const, exercises: { a: entry({ hintsRevealed: 2 }) } };
    expect(applyImport(mine, theirs, 'merge').exercises.a).toEqual(entry({ hintsRevealed: 3, hintsShown: [3, 1, 0] }));
  });

  it('replace makes the progress exactly the file’s', () => {
    expect(applyImport(mine, file, 'replace')).toEqual(file);
  });

  it('property: merge never loses a learner’s code or mark; replace equals the file; an empty plan means no change', () => {
    fc.assert(
      fc.property(progressArbitrary, progressArbitrary, (a, b) => {
        const merged = applyImport(a, b, 'merge');
        for (const [id, e] of Object.entries(a.exercises)) {
          if (e.code !== undefined) expect(merged.exercises[id]?.code).toBe(e.code);
          if (e.completed) expect(merged.exercises[id]?.completed).toBe(true);
          expect(merged.exercises[id]?.hintsRevealed).toBeGreaterThanOrEqual(e.hintsRevealed);
          if (e.referenceUsed === true) expect(merged.exercises[id]?.referenceUsed).toBe(true);
        }
        expect(applyImport(a, b, 'replace')).toEqual(b);
        const plan = planImport(a, b, []);
        if (plan.modesAgree) expect(normalisedForCompare(merged)).toEqual(normalisedForCompare(applyImport(a, b, 'replace'), merged));
        expect(planImport(a, a, []).exercises).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

/** Code, marks and hints only (merge may keep the learner's completedAt date). */
function normalisedForCompare(progress: StoredProgress, shape?: StoredProgress): Record<string, unknown> {
  const ids = new Set([...Object.keys(progress.exercises), ...Object.keys(shape?.exercises ?? {})]);
  return Object.fromEntries([...ids].map((id) => {
    const e = progress.exercises[id] ?? { completed: false, hintsRevealed: 0 };
    return [id, { code: e.code, completed: e.completed, hintsRevealed: e.hintsRevealed }];
  }));
}
