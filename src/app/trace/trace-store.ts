// An opened trace as a read-only "host": its log is the one the live panel would have shown, read
// from a file instead of a running server. Opening runs in a worker (see TraceLoader); the store
// collects the batches, and the rows read so far show while the rest is read (`reading`, a log of
// its own). Only when the whole file has passed validation does it become the opened trace, so a
// bad file (or a cancelled load) changes nothing of the trace shown before but the message that
// names its line.

import type { FramingName } from '../../protocol/framing/types.ts';
import type { TraceErrorCode, TraceHeader } from '../../runtime/trace/index.ts';
import { EMPTY_LOG, type LogEntry, type MessageLog } from '../live-session/message-log.ts';
import type { LogSource, LogSourceState } from '../live-session/log-source.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import { logFramingOf } from './trace-log.ts';
import type { TraceWorkerToPage } from './trace-worker-messages.ts';
import { unpackEntries } from './packed-entries.ts';

/** Opens one trace off the page's thread; returns a function that abandons the load. */
export interface TraceLoader {
  open(source: Blob | string, onMessage: (message: TraceWorkerToPage) => void): () => void;
}

export interface OpenedTrace {
  /** Changes with every trace opened (a view keyed by it starts over). */
  serial: number;
  name: string;
  /** The file or text it was read from: kept (a Blob costs nothing) for "copy a link". */
  source: Blob | string;
  header: TraceHeader;
  events: number;
  bytes: number;
}

export interface TraceLoading {
  name: string;
  bytesRead: number;
  totalBytes: number;
  events: number;
}

/** The trace being read. */
export interface TraceReading {
  /** The serial it will have once opened (a view keyed by it stays mounted). */
  serial: number;
  name: string;
  /** Its rows so far: a log source of its own, beside the opened trace's. */
  source: LogSource;
}

/** The rows of a trace still being read. */
class ReadingSource extends ExternalStore<LogSourceState> implements LogSource {
  protected readonly store: Store<LogSourceState>;

  constructor(framing: FramingName) {
    super();
    this.store = createStore<LogSourceState>({ log: EMPTY_LOG, framing, methods: [] });
  }

  show(entries: readonly LogEntry[]): void {
    this.store.setState((state) => ({ ...state, log: { entries, dropped: 0 } }));
  }
}

export interface TraceFailure {
  name: string;
  code: TraceErrorCode | 'read';
  /** 1-based; 0 when the file could not be read at all. */
  line: number;
  message: string;
}

export interface TraceState {
  /** The opened trace's log and framing: what the message log and the inspector read. */
  log: MessageLog;
  framing: FramingName;
  /** The opened trace's methods, sorted (counted by the worker). */
  methods: readonly string[];
  trace: OpenedTrace | null;
  /** Set while a trace's rows show before it is read to the end (`trace`, `log` stay the one shown before, if any). */
  reading: TraceReading | null;
  loading: TraceLoading | null;
  failure: TraceFailure | null;
}

export class TraceStore extends ExternalStore<TraceState> implements LogSource {
  protected readonly store: Store<TraceState> = createStore<TraceState>({ log: EMPTY_LOG, framing: 'ndjson', methods: [], trace: null, reading: null, loading: null, failure: null });
  private cancel: (() => void) | null = null;
  private opening = 0;

  constructor(private readonly loader: TraceLoader) {
    super();
  }

  /** Open a trace; resolves when it is shown or refused. A newer open abandons this one. */
  open(name: string, source: Blob | string): Promise<'opened' | 'failed' | 'abandoned'> {
    this.cancel?.();
    const opening = ++this.opening;
    const totalBytes = typeof source === 'string' ? source.length : source.size;
    this.update({ loading: { name, bytesRead: 0, totalBytes, events: 0 }, failure: null });
    const entries: LogEntry[] = [];
    let header: TraceHeader | null = null;
    // The rows read so far are shown with a progress report once they are a quarter more than
    // those last shown: the first at once, then ever rarer, because each new log makes the list
    // measure every row again (a 100 MB trace shown at every report spent seconds on that).
    let shownCount = 0;
    let reading: TraceReading | null = null;

    return new Promise((resolve) => {
      let stopLoader: () => void = () => {};
      const finish = (outcome: 'opened' | 'failed') => {
        stopLoader();
        this.cancel = null;
        resolve(outcome);
      };
      stopLoader = this.loader.open(source, (message) => {
        if (opening !== this.opening) return;
        switch (message.type) {
          case 'header':
            header = message.header;
            break;
          case 'entries':
            for (const entry of unpackEntries(message.batch)) entries.push(entry);
            break;
          case 'progress': {
            const loading = { name, bytesRead: message.bytesRead, totalBytes: message.totalBytes, events: message.events };
            if (header !== null && entries.length > 0 && entries.length >= shownCount * 1.25) {
              shownCount = entries.length;
              reading ??= { serial: opening, name, source: new ReadingSource(logFramingOf(header) ?? 'ndjson') };
              // A copy: the log a view holds must not change under it.
              (reading.source as ReadingSource).show(entries.slice());
            }
            this.update({ loading, reading });
            break;
          }
          case 'failed': {
            const { code, line, message: text } = message.error;
            this.update({ reading: null, loading: null, failure: { name, code: line === 0 ? 'read' : code, line, message: text } });
            finish('failed');
            break;
          }
          case 'done':
            if (header === null) {
              this.update({ reading: null, loading: null, failure: { name, code: 'empty', line: 1, message: 'line 1: the file is empty: a trace starts with a header line' } });
              finish('failed');
              return;
            }
            this.update({
              log: { entries, dropped: 0 },
              framing: logFramingOf(header) ?? 'ndjson',
              methods: message.methods,
              trace: { serial: opening, name, source, header, events: message.events, bytes: message.bytes },
              reading: null,
              loading: null,
              failure: null,
            });
            finish('opened');
            break;
        }
      });
      this.cancel = () => {
        stopLoader();
        if (opening === this.opening) this.update({ reading: null, loading: null });
        resolve('abandoned');
      };
    });
  }

  /** Stop a load in progress; what was shown before stays. */
  abandon(): void {
    this.cancel?.();
    this.cancel = null;
  }

  dismissFailure(): void {
    this.update({ failure: null });
  }

  private update(patch: Partial<TraceState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}
