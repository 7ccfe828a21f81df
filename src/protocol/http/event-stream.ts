// One SSE stream of a Streamable HTTP session, apart from the connections that carry it. The
// specification separates the two: a server may close a *connection* without ending the
// *stream*, and the client resumes the stream on a new connection with `Last-Event-ID`. So each
// stream numbers its events (`<stream>/<n>`: unique across the session, and the id alone says
// which stream to resume), keeps them for replay, and writes them to whichever connection is
// current. Events written while no connection is open wait in the log for the resume.

import { toJsonText } from '../framing/json-body.ts';
import { encodeSseEvent } from '../framing/sse.ts';
import { PushStream } from './push-stream.ts';

interface LoggedEvent {
  seq: number;
  bytes: Uint8Array;
}

/** The replay log keeps at most this many events per stream; older ones can no longer be resumed. */
export const DEFAULT_MAX_REPLAY_EVENTS = 1000;

/**
 * Under the close-streams-early fault, a request may ask (in its `_meta`, under this key) for its
 * stream to be held open on its Nth resume instead of closed again: from then on that connection
 * waits for the response. The failure lab's retry card asks for IMPATIENT_RESUMES_BEFORE_HOLD for
 * the client that ignores `retry` and 1 for the one that waits, so its reconnect counts follow
 * from this rule on any machine, not from how long the tool ran. Without it, every connection
 * closes early until the response.
 */
export const HOLD_AFTER_RESUMES_META = 'dev.mcp-playground/holdAfterResumes';
export const IMPATIENT_RESUMES_BEFORE_HOLD = 20;

export class EventStream {
  private seq = 0;
  /** The highest event number written to a connection that was open at the time. */
  private deliveredSeq = 0;
  private readonly log: LoggedEvent[] = [];
  private connection: PushStream | null = null;
  private finished = false;
  /** When the current connection opened or last carried an event (the idle-stream rule reads it). */
  private lastActive = 0;
  /** close-streams-early: how often this stream has been resumed. */
  private resumes = 0;

  constructor(
    /** Unique within the session; the prefix of every event id. */
    readonly key: string,
    private readonly retryMs: number | undefined,
    private readonly maxReplayEvents = DEFAULT_MAX_REPLAY_EVENTS,
    /**
     * SSE polling forced on (the close-streams-early fault): every connection ends as soon as it
     * has written what was pending, until the stream is done. The client must poll: wait `retry`
     * ms, resume with Last-Event-ID, get what came meanwhile, and again, until the response.
     */
    private readonly closeEarly = false,
    /** close-streams-early: hold the connection open on this resume (HOLD_AFTER_RESUMES_META). */
    private readonly holdAfterResumes?: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** When the open connection last carried anything (or opened); undefined with no connection open. */
  get activeAt(): number | undefined {
    return this.connected ? this.lastActive : undefined;
  }

  /** True after the stream's last message (a POST stream's response) was sent. */
  get done(): boolean {
    return this.finished;
  }

  get connected(): boolean {
    return this.connection?.open === true;
  }

  /**
   * A new connection for this stream. A fresh one starts with the priming event (an id and
   * empty data, so the client has something to resume from, plus `retry`) and then gets the
   * events no connection has carried yet (the standalone stream holds them while no GET is open).
   * A resume (`afterSeq` given) replays the events after that number. A connection already open
   * is closed: one at a time.
   */
  connect(afterSeq?: number): PushStream {
    this.connection?.end();
    const connection = new PushStream();
    connection.onCancel(() => {
      if (this.connection === connection) this.connection = null;
    });
    this.connection = connection;
    this.lastActive = this.now();
    // A fresh connection is primed with the id of the last event already carried, so a resume
    // from the priming event replays exactly what this connection is about to get.
    const from = afterSeq ?? this.deliveredSeq;
    if (afterSeq === undefined) connection.write(encodeSseEvent({ id: this.eventId(from), retry: this.retryMs, data: '' }));
    else if (this.retryMs !== undefined) connection.write(encodeSseEvent({ retry: this.retryMs }));
    // close-streams-early with a hold asked for: the resume that holds gets everything and stays
    // open; one before it gets what came meanwhile but never the response (its last event), so
    // the client comes back exactly as often as the rule says, however fast the tool was.
    const held = this.closeEarly && this.holdOnResume(afterSeq !== undefined);
    const withholdResponse = this.closeEarly && this.holdAfterResumes !== undefined && !held && this.finished;
    const upTo = withholdResponse ? this.seq - 1 : this.seq;
    for (const event of this.log) if (event.seq > from && event.seq <= upTo) connection.write(event.bytes);
    this.deliveredSeq = upTo;
    if (this.finished && !withholdResponse) connection.end();
    else if (this.closeEarly && !held) this.closeConnection();
    return connection;
  }

  /** Send one message on this stream: logged for replay, written now if a connection is open. */
  send(message: unknown): void {
    if (this.finished) throw new Error(`stream ${this.key} has ended; a message must not be sent on it`);
    this.seq++;
    const bytes = encodeSseEvent({ id: this.eventId(this.seq), data: toJsonText(message) });
    this.log.push({ seq: this.seq, bytes });
    if (this.log.length > this.maxReplayEvents) this.log.shift();
    if (this.connection?.open === true) {
      this.connection.write(bytes);
      this.deliveredSeq = this.seq;
      this.lastActive = this.now();
    }
  }

  /** The stream is complete (its response was sent): end the connection after what is queued. */
  finish(): void {
    this.finished = true;
    this.connection?.end();
  }

  /** close-streams-early: whether this connection stays open until the response (counted, never timed). */
  private holdOnResume(resume: boolean): boolean {
    if (!resume) return false;
    this.resumes++;
    return this.holdAfterResumes !== undefined && this.resumes >= this.holdAfterResumes;
  }

  /**
   * Close the connection but not the stream (SSE polling): the client reconnects after `retry`
   * and resumes from its last event id. The retry field was sent when the connection opened.
   */
  closeConnection(): void {
    const connection = this.connection;
    this.connection = null;
    connection?.end();
  }

  private eventId(seq: number): string {
    return `${this.key}/${seq}`;
  }
}

/** Split an event id of this server into its stream key and number; null for anything else. */
export function parseEventId(id: string): { key: string; seq: number } | null {
  const slash = id.lastIndexOf('/');
  if (slash <= 0) return null;
  const digits = id.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(digits)) return null;
  return { key: id.slice(0, slash), seq: Number(digits) };
}
