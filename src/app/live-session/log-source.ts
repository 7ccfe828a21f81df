// What the message log's views read: a log and the framing it was read with. The live session is
// one source (its snapshot has both); an opened trace is another, read-only one.

import type { FramingName } from '../../protocol/framing/types.ts';
import type { Listener } from '../store/create-store.ts';
import type { MessageLog } from './message-log.ts';

export interface LogSourceState {
  readonly log: MessageLog;
  readonly framing: FramingName;
  /** Every method in the log, sorted, when the source already knows them (a trace: its worker counted them). */
  readonly methods?: readonly string[];
}

export interface LogSource {
  getSnapshot(): LogSourceState;
  subscribe(listener: Listener): () => void;
}
