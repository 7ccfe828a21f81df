import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDSHAKE_PLAN } from '../protocol/step-plan.ts';
import { handshakeNote, lessonNotes, notesFor, type PresenterNotes } from './notes.ts';
import { notesEn } from './notes.en.ts';
import { notesZhCN } from './notes.zh-CN.ts';

const EXERCISES = join(import.meta.dirname, '../../../exercises');
const exerciseIds = readdirSync(EXERCISES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d\d-/.test(entry.name))
  .map((entry) => entry.name)
  .sort();

/** The lesson steps of an exercise: every step its meta.json names, and every `{#id}` heading of its lessons. */
function lessonStepIds(id: string): string[] {
  const meta = JSON.parse(readFileSync(join(EXERCISES, id, 'meta.json'), 'utf8')) as { steps: Record<string, string> };
  const headings = ['content.en.md', 'content.zh-CN.md'].flatMap((file) => [...readFileSync(join(EXERCISES, id, file), 'utf8').matchAll(/^##+ .*\{#([\w-]+)\}\s*$/gm)].map((match) => match[1]!));
  return [...new Set([...Object.values(meta.steps), ...headings])].sort();
}

const LANGUAGES: Array<[string, PresenterNotes]> = [
  ['en', notesEn],
  ['zh-CN', notesZhCN],
];

describe('speaker notes', () => {
  it('finds the exercises to check (the test would pass vacuously otherwise)', () => {
    expect(exerciseIds.length).toBeGreaterThanOrEqual(5);
    expect(lessonStepIds('01-jsonrpc')).toContain('three-shapes');
  });

  it.each(LANGUAGES)('%s has one note per handshake-stepper step, in plan order', (_language, notes) => {
    expect(notes.handshake.steps.map((note) => note.kind)).toEqual(HANDSHAKE_PLAN.map((step) => step.kind));
    for (const text of [notes.handshake.intro, notes.handshake.scenario, ...notes.handshake.steps.map((note) => note.text)]) expect(text.trim().length).toBeGreaterThan(40);
  });

  it.each(LANGUAGES)('%s has a note for every lesson step of every exercise, and none for steps that do not exist', (_language, notes) => {
    expect(Object.keys(notes.lessons).sort()).toEqual(exerciseIds);
    for (const id of exerciseIds) {
      expect(Object.keys(notes.lessons[id]!).sort(), id).toEqual(lessonStepIds(id));
      for (const [step, text] of Object.entries(notes.lessons[id]!)) expect(text.trim().length, `${id}#${step}`).toBeGreaterThan(40);
    }
  });

  it('covers exactly the same steps in both languages, translated rather than copied', () => {
    expect(notesZhCN.handshake.steps.map((note) => note.kind)).toEqual(notesEn.handshake.steps.map((note) => note.kind));
    for (const id of Object.keys(notesEn.lessons)) {
      expect(Object.keys(notesZhCN.lessons[id] ?? {}).sort(), id).toEqual(Object.keys(notesEn.lessons[id]!).sort());
      for (const [step, text] of Object.entries(notesZhCN.lessons[id]!)) {
        expect(text, `${id}#${step}`).not.toBe(notesEn.lessons[id]![step]);
        expect(text, `${id}#${step}`).toMatch(/[\u4e00-\u9fff]/);
      }
    }
    notesZhCN.handshake.steps.forEach((note, index) => expect(note.text).not.toBe(notesEn.handshake.steps[index]!.text));
  });

  it('keeps protocol names in English in the Chinese notes', () => {
    const zh = JSON.stringify(notesZhCN);
    for (const term of ['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'Content-Length', 'isError']) expect(zh).toContain(term);
  });

  it('shows the intro before any step, the last shown step’s note after, and the scenario note for lab runs', () => {
    const notes = notesFor('en');
    expect(handshakeNote(notes, 0, true)).toBe(notes.handshake.intro);
    expect(handshakeNote(notes, 1, true)).toBe(notes.handshake.steps[0]!.text);
    expect(handshakeNote(notes, 9, true)).toBe(notes.handshake.steps[8]!.text);
    expect(handshakeNote(notes, 3, false)).toBe(notes.handshake.scenario);
    expect(notesFor('zh-CN')).toBe(notesZhCN);
    expect(notesFor('fr')).toBe(notesEn);
  });

  it('lists an exercise’s lesson notes in heading order', () => {
    const listed = lessonNotes(notesEn, '02-frames', ['ndjson', 'byte-stream', 'nope']).map((note) => note.id);
    expect(listed.slice(0, 2)).toEqual(['ndjson', 'byte-stream']);
    expect(listed).not.toContain('nope');
    expect(listed).toHaveLength(6);
    expect(lessonNotes(notesEn, 'missing', ['a'])).toEqual([]);
  });
});
