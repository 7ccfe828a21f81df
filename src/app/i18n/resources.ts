// The UI text's shape: one namespace per feature, each a JSON file per language under
// src/locales/<language>/<namespace>.json. The types come from the English files (the source of the
// key set): a key missing from English is a type error in the component that asks for it; the
// other languages are checked against English by tests/i18n/completeness.test.ts.

import type chapterLoop from '../../locales/en/chapter-loop.json';
import type common from '../../locales/en/common.json';
import type exercise from '../../locales/en/exercise.json';
import type live from '../../locales/en/live.json';
import type preflight from '../../locales/en/preflight.json';
import type presenter from '../../locales/en/presenter.json';
import type progressTransfer from '../../locales/en/progress-transfer.json';
import type protocol from '../../locales/en/protocol.json';
import type sdkChecks from '../../locales/en/sdk-checks.json';
import type trace from '../../locales/en/trace.json';
import type era from '../../locales/en/era.json';
import type features from '../../locales/en/features.json';
import type room from '../../locales/en/room.json';
import type auth from '../../locales/en/auth.json';

export interface Resources {
  /** The header: title, sections, language switch, dialog buttons. Always loaded. */
  common: typeof common;
  /** The study view: exercise list, lesson frame, editor, results, hints, solution. */
  exercise: typeof exercise;
  /** The live panel under every view: hosts, echo server, handshake, message log. */
  live: typeof live;
  protocol: typeof protocol;
  'chapter-loop': typeof chapterLoop;
  'sdk-checks': typeof sdkChecks;
  presenter: typeof presenter;
  preflight: typeof preflight;
  'progress-transfer': typeof progressTransfer;
  /** The trace view (#trace): open, drop or link a recorded trace; save the live session as one. */
  trace: typeof trace;
  /** The protocol view's era switch, its failure cards and the inspector's 2026-07-28 fields. */
  era: typeof era;
  /** The live panel's Server features tabs (resources, prompts, logging, progress, sampling over HTTP). */
  features: typeof features;
  /** The workshop room (#room, #join): joining, the attendee's standing, the instructor's grid. */
  room: typeof room;
  /** The protocol view's authorization scene: sign-in steps, consent, PKCE, the token's claims, its failure cards. */
  auth: typeof auth;
}

export type Namespace = keyof Resources;

export const NAMESPACES = ['common', 'exercise', 'live', 'protocol', 'chapter-loop', 'sdk-checks', 'presenter', 'preflight', 'progress-transfer', 'trace', 'era', 'features', 'room', 'auth'] as const satisfies readonly Namespace[];

/** Always loaded: the header is on every page. */
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}
