// The frame an "Ask for help" carries, when the question is about frames: the one the attendee
// opened last in the byte inspector, else the last one their run could not read (an invalid or
// unreadable arrow on the stepper). It travels as JSON (bytes in base64url) and the instructor's
// byte inspector shows it as the attendee saw it.

import { base64UrlToBytes, bytesToBase64Url } from '../../protocol/base64.ts';
import { MAX_HELP_FRAME_BYTES, MAX_HELP_FRAME_CHUNKS, type HelpFrame } from '../../runtime/room-messages.ts';
import type { InspectTarget } from '../protocol/inspect-target.ts';
import type { ProtocolUiStore } from '../protocol/protocol-ui-store.ts';
import type { StepperStore } from '../protocol/stepper-store.ts';
import type { ArrowKind } from '../protocol/stepper-records.ts';

const ARROW_KINDS: readonly ArrowKind[] = ['request', 'notification', 'response', 'error-response', 'invalid', 'unreadable', 'eof', 'exit'];

/** The frame to send with a question now, or null when the attendee has none in view. */
export function frameToAsk(ui: Pick<ProtocolUiStore, 'getSnapshot'>, stepper: Pick<StepperStore, 'getSnapshot' | 'inspect'>): HelpFrame | null {
  const opened = ui.getSnapshot().lastInspected;
  if (opened !== null) return helpFrameOf(opened);
  const { records, cursor } = stepper.getSnapshot();
  const unread = records
    .slice(0, cursor)
    .flatMap((record) => record.arrows)
    .filter((arrow) => (arrow.kind === 'invalid' || arrow.kind === 'unreadable') && arrow.frame !== null)
    .at(-1);
  const target = unread === undefined ? null : stepper.inspect(unread.seq);
  return target === null ? null : helpFrameOf(target);
}

/** The frame as a question carries it; null for one too big to send (the question then goes without it). */
export function helpFrameOf(target: InspectTarget): HelpFrame | null {
  if (target.bytes.byteLength > MAX_HELP_FRAME_BYTES || target.chunks.length > MAX_HELP_FRAME_CHUNKS) return null;
  return {
    direction: target.direction,
    framing: target.framing,
    bytes: bytesToBase64Url(target.bytes),
    streamOffset: target.streamOffset,
    chunks: target.chunks,
    kind: target.kind,
    method: target.method,
    id: target.id,
    value: target.value,
    problem: target.problem,
  };
}

/** What the instructor's byte inspector shows; null for a frame whose bytes do not decode. */
export function inspectTargetOf(frame: HelpFrame): InspectTarget | null {
  const bytes = base64UrlToBytes(frame.bytes);
  if (bytes === null) return null;
  const kind = (ARROW_KINDS as readonly string[]).includes(frame.kind) ? (frame.kind as ArrowKind) : 'invalid';
  // The attendee's stream is not here, so there is nothing to replay.
  return { ...frame, bytes, kind, replay: [] };
}
