// Speaker notes: what the instructor says at each handshake-stepper step and at each lesson step.
// The text lives in notes.en.ts and notes.zh-CN.ts (one object per language, same shape, checked
// by notes.node.test.ts); this file holds the shape and the lookups the presenter view uses.

import type { HttpCardId } from '../failure-lab/http-cards.ts';
import type { HttpStepId } from '../protocol/http-session-store.ts';
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

export interface PresenterNotes {
  handshake: {
    /** Shown before the first step, while the diagram is still empty. */
    intro: string;
    /** One note per step of HANDSHAKE_PLAN, in order. */
    steps: readonly HandshakeNote[];
    /** Shown when a failure-lab scenario, not the handshake, is loaded in the stepper. */
    scenario: string;
  };
  /** The HTTP stepper (protocol view, transport Streamable HTTP) and its failure cards. */
  http: {
    /** Shown before the first step. */
    intro: string;
    /** One note per step of HTTP_STEPS, in order. */
    steps: readonly HttpNote[];
    /** One note per HTTP failure card. */
    cards: Readonly<Record<HttpCardId, string>>;
  };
  /** Exercise id → lesson step id (the `{#id}` of a lesson heading) → note. */
  lessons: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export type NotesLanguage = 'en' | 'zh-CN';

export function notesFor(language: string): PresenterNotes {
  return language === 'zh-CN' ? notesZhCN : notesEn;
}

/**
 * The note for what the stepper shows: with `cursor` steps shown, the last shown step's note (what
 * the room is looking at), or the intro before any step. Lab scenarios run other plans, so the
 * handshake's notes would describe the wrong arrows there.
 */
export function handshakeNote(notes: PresenterNotes, cursor: number, isHandshake: boolean): string {
  if (!isHandshake) return notes.handshake.scenario;
  if (cursor <= 0) return notes.handshake.intro;
  return notes.handshake.steps[Math.min(cursor, notes.handshake.steps.length) - 1]!.text;
}

/** The note for what the HTTP stepper shows: the last finished step's, or the intro before any. */
export function httpNote(notes: PresenterNotes, cursor: number): string {
  if (cursor <= 0) return notes.http.intro;
  return notes.http.steps[Math.min(cursor, notes.http.steps.length) - 1]!.text;
}

/** Lesson step notes of one exercise in the lesson's heading order (ids without a note are left out). */
export function lessonNotes(notes: PresenterNotes, exerciseId: string, headingIds: readonly string[]): Array<{ id: string; text: string }> {
  const forExercise = notes.lessons[exerciseId] ?? {};
  const ordered = headingIds.filter((id) => id in forExercise);
  // A note whose heading is not in this language's lesson still shows, after the others.
  const rest = Object.keys(forExercise).filter((id) => !headingIds.includes(id));
  return [...ordered, ...rest].map((id) => ({ id, text: forExercise[id]! }));
}
