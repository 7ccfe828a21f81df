import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDSHAKE_PLAN } from '../protocol/step-plan.ts';
import { MODERN_PLAN, PROBE_PLAN } from '../protocol/era-runs.ts';
import { HTTP_CARD_IDS } from '../failure-lab/http-cards.ts';
import { HTTP_STEPS, MODERN_HTTP_STEPS } from '../protocol/http-session-store.ts';
import { httpNote, lessonNotes, notesFor, stdioNote, type PresenterNotes } from './notes.ts';
import { notesEn } from './notes.en.ts';
import { notesZhCN } from './notes.zh-CN.ts';
import { EXERCISES_DIR } from '../../../tools/catalogue-node.ts';

const exerciseIds = readdirSync(EXERCISES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d\d-/.test(entry.name))
  .map((entry) => entry.name)
  .sort();

/** The lesson steps of an exercise: every step its meta.json names, and every `{#id}` heading of its lessons. */
function lessonStepIds(id: string): string[] {
  const meta = JSON.parse(readFileSync(join(EXERCISES_DIR, id, 'meta.json'), 'utf8')) as { steps: Record<string, string> };
  const headings = ['content.en.md', 'content.zh-CN.md'].flatMap((file) => [...readFileSync(join(EXERCISES_DIR, id, file), 'utf8').matchAll(/^##+ .*\{#([\w-]+)\}\s*$/gm)].map((match) => match[1]!));
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

  it.each(LANGUAGES)('%s has one note per HTTP stepper step, in stepper order, and one per HTTP failure card', (_language, notes) => {
    expect(notes.http.steps.map((note) => note.step)).toEqual([...HTTP_STEPS]);
    expect(Object.keys(notes.http.cards).sort()).toEqual([...HTTP_CARD_IDS].sort());
    for (const text of [notes.http.intro, ...notes.http.steps.map((note) => note.text), ...Object.values(notes.http.cards)]) expect(text.trim().length).toBeGreaterThan(40);
  });

  it('translates the HTTP notes rather than copying them, keeping the header and method names in English', () => {
    expect(notesZhCN.http.intro).not.toBe(notesEn.http.intro);
    notesZhCN.http.steps.forEach((note, index) => {
      expect(note.text).not.toBe(notesEn.http.steps[index]!.text);
      expect(note.text).toMatch(/[\u4e00-\u9fff]/);
    });
    for (const id of HTTP_CARD_IDS) {
      expect(notesZhCN.http.cards[id]).not.toBe(notesEn.http.cards[id]);
      expect(notesZhCN.http.cards[id]).toMatch(/[\u4e00-\u9fff]/);
    }
    const zh = JSON.stringify(notesZhCN.http);
    for (const term of ['Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'text/event-stream', 'notifications/initialized', '202', '404', '405', 'retry', 'DELETE']) {
      expect(zh, term).toContain(term);
      expect(JSON.stringify(notesEn.http), term).toContain(term);
    }
  });

  it('shows the HTTP intro before any step, then the last finished step’s note, in each era', () => {
    const notes = notesFor('zh-CN');
    expect(httpNote(notes, 'handshake', 0)).toBe(notes.http.intro);
    expect(httpNote(notes, 'handshake', 1)).toBe(notes.http.steps[0]!.text);
    expect(httpNote(notes, 'handshake', HTTP_STEPS.length)).toBe(notes.http.steps.at(-1)!.text);
    expect(httpNote(notes, 'handshake', HTTP_STEPS.length + 3)).toBe(notes.http.steps.at(-1)!.text);
    expect(httpNote(notes, 'modern', 0)).toBe(notes.http.modern.intro);
    expect(httpNote(notes, 'modern', 1)).toBe(notes.http.modern.steps[0]!.text);
    expect(httpNote(notes, 'modern', MODERN_HTTP_STEPS.length)).toBe(notes.http.modern.steps.at(-1)!.text);
  });

  it.each(LANGUAGES)('%s has one note per step of every scene’s plan, in plan order, none mentioning initialize where none crosses the wire', (_language, notes) => {
    expect(notes.eras.modern.steps.map((note) => note.kind)).toEqual(MODERN_PLAN.map((step) => step.kind));
    expect(notes.eras.probe.steps.map((note) => note.kind)).toEqual(PROBE_PLAN.map((step) => step.kind));
    expect(notes.http.modern.steps.map((note) => note.step)).toEqual([...MODERN_HTTP_STEPS]);
    for (const set of [notes.eras.modern, notes.eras.probe, notes.http.modern]) {
      for (const text of [set.intro, ...set.steps.map((note) => note.text)]) expect(text.trim().length).toBeGreaterThan(40);
    }
    // The 2026-07-28 scenes' steps (not their intros, which say what is gone) never describe a handshake.
    for (const note of [...notes.eras.modern.steps, ...notes.http.modern.steps]) expect(note.text).not.toMatch(/Mcp-Session-Id:|notifications\/initialized (went|was sent)|DELETE with/);
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
    for (const pick of [(notes: PresenterNotes) => notes.eras.modern, (notes: PresenterNotes) => notes.eras.probe, (notes: PresenterNotes) => notes.http.modern]) {
      const [zh, en] = [pick(notesZhCN), pick(notesEn)];
      expect(zh.intro).not.toBe(en.intro);
      zh.steps.forEach((note, index) => {
        expect(note.text).not.toBe(en.steps[index]!.text);
        expect(note.text).toMatch(/[\u4e00-\u9fff]/);
      });
    }
  });

  it('keeps protocol names in English in the Chinese notes', () => {
    const zh = JSON.stringify(notesZhCN);
    for (const term of ['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'Content-Length', 'isError']) expect(zh).toContain(term);
  });

  it('shows the scene’s intro before any step, the last shown step’s note after, and the scenario note for lab runs', () => {
    const notes = notesFor('en');
    expect(stdioNote(notes, 'stdio-handshake', 0)).toBe(notes.handshake.intro);
    expect(stdioNote(notes, 'stdio-handshake', 1)).toBe(notes.handshake.steps[0]!.text);
    expect(stdioNote(notes, 'stdio-handshake', 9)).toBe(notes.handshake.steps[8]!.text);
    expect(stdioNote(notes, 'stdio-modern', 0)).toBe(notes.eras.modern.intro);
    expect(stdioNote(notes, 'stdio-modern', 1)).toBe(notes.eras.modern.steps[0]!.text);
    expect(stdioNote(notes, 'stdio-probe', 3)).toBe(notes.eras.probe.steps[2]!.text);
    expect(stdioNote(notes, null, 3)).toBe(notes.handshake.scenario);
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
