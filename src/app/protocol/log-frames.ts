// The byte inspector for a row of the live panel's message log. A log entry is one chunk; the
// frames it completed may have begun in earlier chunks. The chunks of one direction, laid end to
// end, are the stream; the last frame a chunk completed ends where the reader's held bytes begin,
// and the frames before it end where the next one starts.

import type { FramingName } from '../../protocol/framing/types.ts';
import type { LogEntry, LogFrame, MessageLog } from '../live-session/message-log.ts';
import { ByteStream } from '../../protocol/inspect/byte-stream.ts';
import { targetFromStream, type InspectTarget } from './inspect-target.ts';

/**
 * The inspector's view of frame `frameIndex` of log entry `seq`; null when the entry has no such
 * frame. The log outlives a server run, and the framing may change between runs: only the entries
 * since the run's spawn count, and the spawn's arguments say which framing it spoke
 * (`fallbackFraming` when they do not).
 */
export function targetFromLog(log: MessageLog, fallbackFraming: FramingName, seq: number, frameIndex: number): InspectTarget | null {
  const at = log.entries.findIndex((candidate) => candidate.seq === seq);
  const entry = log.entries[at];
  if (entry?.type !== 'bytes') return null;
  const frame = entry.frames[frameIndex];
  if (frame === undefined) return null;

  let start = at;
  while (start > 0 && log.entries[start - 1]!.type !== 'spawn') start--;
  const spawn = log.entries[start - 1];
  const framing = spawn?.type === 'spawn' ? (framingOfArgv(spawn.argv) ?? fallbackFraming) : fallbackFraming;

  const stream = new ByteStream(entry.direction);
  for (const candidate of log.entries.slice(start, at + 1)) {
    if (candidate.type === 'bytes' && candidate.direction === entry.direction) stream.append(candidate.bytes, candidate.t, 0);
  }
  let end = stream.length - entry.bufferedBytes;
  for (let i = entry.frames.length - 1; i > frameIndex; i--) end -= entry.frames[i]!.length;
  // A log cleared mid-frame no longer holds the frame's first bytes: show what is left.
  const offset = Math.max(0, end - frame.length);
  return targetFromStream(stream, framing, { offset, length: end - offset, ...describe(frame) });
}

/**
 * `--framing=…` in a spawn's argv. Without it every echo server speaks NDJSON: the SDK servers
 * take no such flag, and NDJSON is the project's echo server's default.
 */
export function framingOfArgv(argv: readonly string[]): FramingName | null {
  for (const arg of argv) {
    if (arg === '--framing=ndjson') return 'ndjson';
    if (arg === '--framing=content-length') return 'content-length';
  }
  return argv.some((arg) => /echo-server/.test(arg)) ? 'ndjson' : null;
}

function describe(frame: LogFrame): Pick<InspectTarget, 'kind' | 'method' | 'id' | 'value' | 'problem'> {
  if (frame.type === 'error') return { kind: 'unreadable', method: null, id: null, value: null, problem: `${frame.kind}: ${frame.detail}` };
  return { kind: frame.kind, method: frame.method, id: frame.id, value: frame.value, problem: frame.invalidReason };
}

/** Whether an entry has frames worth opening in the inspector. */
export function hasInspectableFrames(entry: LogEntry): boolean {
  return entry.type === 'bytes' && entry.frames.length > 0;
}
