// Speaker notes: what the instructor says at each handshake-stepper step and at each lesson step.
// The text lives in notes.en.ts and notes.zh-CN.ts (one object per language, same shape, checked
// by notes.node.test.ts); this file holds the shape and the lookups the presenter view uses.

import type { HttpCardId } from '../failure-lab/http-cards.ts';
import type { HttpEra, HttpStepId } from '../protocol/http-session-store.ts';
import type { Scene } from '../protocol/scene-names.ts';
import type { PlanStepKind } from '../protocol/step-plan.ts';
import { notesEn } from './notes.en.ts';
import { notesZhCN } from './notes.zh-CN.ts';

export interface HandshakeNote {
  /** The plan step this note belongs to, so a reordered plan fails the coverage test. */
  kind: PlanStepKind;
  text: string;
}

export interface HttpNote {
  /** The HTTP stepper step this note belongs to, so a reordered stepper fails the coverage test. */
  step: HttpStepId;
  text: string;
}

/** What is said before the first step, then at each step. */
export interface StepNotes<Note> {
  intro: string;
  steps: readonly Note[];
}

export interface PresenterNotes {
  handshake: {
    /** Shown before the first step, while the diagram is still empty. */
    intro: string;
    /** One note per step of HANDSHAKE_PLAN, in order. */
    steps: readonly HandshakeNote[];
    /** Shown when a failure-lab scenario, not the handshake, is loaded in the stepper. */
    scenario: string;
  };
  /** The other two stdio scenes: the client pinned to 2026-07-28, and the probe that falls back. */
  eras: {
    /** One note per step of MODERN_PLAN, in order. */
    modern: StepNotes<HandshakeNote>;
    /** One note per step of PROBE_PLAN, in order. */
    probe: StepNotes<HandshakeNote>;
  };
  /** The HTTP stepper (the HTTP · handshake scene) and its failure cards. */
  http: {
    /** Shown before the first step. */
    intro: string;
    /** One note per step of HTTP_STEPS, in order. */
    steps: readonly HttpNote[];
    /** One note per HTTP failure card. */
    cards: Readonly<Record<HttpCardId, string>>;
    /** The HTTP · 2026-07-28 scene: one note per step of MODERN_HTTP_STEPS, in order. */
    modern: StepNotes<HttpNote>;
  };
  /** Exercise id → lesson step id (the `{#id}` of a lesson heading) → note. */
  lessons: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export type NotesLanguage = 'en' | 'zh-CN';

export function notesFor(language: string): PresenterNotes {
  return language === 'zh-CN' ? notesZhCN : notesEn;
}

/**
 * The note for what the stdio stepper shows in `scene`: with `cursor` steps shown, the last shown
 * step's note (what the room is looking at), or the scene's intro before any step. With no scene
 * (a failure-lab or era card's own run), the notes of a scene would describe the wrong arrows.
 */
export function stdioNote(notes: PresenterNotes, scene: Scene | null, cursor: number): string {
  const set = scene === 'stdio-handshake' ? notes.handshake : scene === 'stdio-modern' ? notes.eras.modern : scene === 'stdio-probe' ? notes.eras.probe : null;
  return set === null ? notes.handshake.scenario : stepNote(set, cursor);
}

/** The note for what the HTTP stepper shows in `era`: the last finished step's, or the intro before any. */
export function httpNote(notes: PresenterNotes, era: HttpEra, cursor: number): string {
  return stepNote(era === 'modern' ? notes.http.modern : notes.http, cursor);
}

function stepNote(set: StepNotes<{ text: string }>, cursor: number): string {
  if (cursor <= 0) return set.intro;
  return set.steps[Math.min(cursor, set.steps.length) - 1]!.text;
}

/** Lesson step notes of one exercise in the lesson's heading order (ids without a note are left out). */
export function lessonNotes(notes: PresenterNotes, exerciseId: string, headingIds: readonly string[]): Array<{ id: string; text: string }> {
  const forExercise = notes.lessons[exerciseId] ?? {};
  const ordered = headingIds.filter((id) => id in forExercise);
  // A note whose heading is not in this language's lesson still shows, after the others.
  const rest = Object.keys(forExercise).filter((id) => !headingIds.includes(id));
  return [...ordered, ...rest].map((id) => ({ id, text: forExercise[id]! }));
}
