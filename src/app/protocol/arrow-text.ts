// The words for arrows, notes and plan steps, shared by the diagram, its text version, the
// announcements and the inspector's title.

import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { PlanStep } from './step-plan.ts';
import type { Arrow, ArrowKind, Note } from './stepper-records.ts';
import type { ProtocolText } from './text.ts';

export function formatId(id: JsonRpcId | null): string {
  if (id === null) return '?';
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

export interface ArrowLike {
  kind: ArrowKind;
  method: string | null;
  id: JsonRpcId | null;
  exit?: { code: number | null; signal: string | null } | null;
}

export function arrowLabel(t: ProtocolText, arrow: ArrowLike): string {
  const id = formatId(arrow.id);
  const method = arrow.method ?? '?';
  switch (arrow.kind) {
    case 'request':
      return t('diagram.arrow.request', { method, id });
    case 'notification':
      return t('diagram.arrow.notification', { method });
    case 'response':
      return arrow.method === null ? t('diagram.arrow.responseUnknown', { id }) : t('diagram.arrow.response', { method, id });
    case 'error-response':
      return t('diagram.arrow.errorResponse', { method, id });
    case 'invalid':
      return t('diagram.arrow.invalid');
    case 'unreadable':
      return t('diagram.arrow.unreadable');
    case 'eof':
      return t('diagram.arrow.eof');
    case 'exit':
      if (arrow.exit?.signal) return t('diagram.arrow.exitSignal', { signal: arrow.exit.signal });
      if (arrow.exit && arrow.exit.code !== null) return t('diagram.arrow.exit', { code: arrow.exit.code });
      return t('diagram.arrow.closed');
  }
}

/** Bytes and chunks under an arrow: "212 B · 3 chunks". */
export function arrowDetail(t: ProtocolText, arrow: Arrow): string {
  // EOF and the exit carry no bytes; their label already says all there is.
  if (arrow.frame === null) return '';
  const parts = [t('diagram.bytes', { count: arrow.frame.length })];
  if (arrow.chunks.length > 1) parts.push(t('diagram.chunks', { count: arrow.chunks.length }));
  if (arrow.aroundClient) parts.push(t('diagram.aroundClient'));
  return parts.join(' · ');
}

export function noteText(t: ProtocolText, note: Note): string {
  const line = note.error?.line ? ` (${t('diagram.line', { line: note.error.line })})` : '';
  return `${t(`diagram.notes.${note.kind}`)}: ${note.detail}${line}`;
}

export function stepLabel(t: ProtocolText, step: PlanStep): string {
  switch (step.kind) {
    case 'call-tool':
      return t('stepper.steps.call-tool', { name: step.name });
    case 'raw':
      return t('stepper.steps.raw', { method: 'method' in step.message ? step.message.method : 'response' });
    case 'register':
      return t('stepper.steps.register', { prefix: step.prefix });
    default:
      return t(`stepper.steps.${step.kind}`);
  }
}

/** Shorten for a one-line SVG label; the full text goes in a <title>. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
