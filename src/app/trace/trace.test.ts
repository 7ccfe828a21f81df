import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEchoWorkerCore } from '../../runtime/echo-worker-core.ts';
import { createWorkerHost, type WorkerLike } from '../../runtime/worker-host.ts';
import { parseTrace, serializeTrace, TRACE_FORMAT } from '../../runtime/trace/index.ts';
import { LiveSessionStore } from '../live-session/live-session-store.ts';
import type { LogEntry } from '../live-session/message-log.ts';
import { frameFile, frameHex } from './frame-file.ts';
import { httpTraceText, traceFileName, traceOfRun, traceText } from './trace-export.ts';
import { isTraceHash, readTraceHash, traceHash } from './trace-link.ts';
import { TraceStore, type TraceLoader } from './trace-store.ts';
import { diagramPage } from './trace-diagram.ts';
import { methodsOf } from '../live-session/log-find.ts';
import { chunksOf, readTrace } from './trace-worker-core.ts';
import { packEntries, unpackEntries } from './packed-entries.ts';
import { splitsACharacter } from './utf8-edges.ts';
import { getFraming } from '../../protocol/framing/index.ts';
import { TapEventDecoder } from '../live-session/message-log.ts';
import type { TraceWorkerToPage } from './trace-worker-messages.ts';

/** The real echo server core, wired like a Web Worker but in memory. */
function inMemoryWorker(): WorkerLike {
  const listeners: ((data: unknown) => void)[] = [];
  const core = createEchoWorkerCore({ post: (event) => queueMicrotask(() => listeners.forEach((listener) => listener(event))) });
  return {
    postMessage: (message) => queueMicrotask(() => core.handle(message)),
    onMessage: (listener) => void listeners.push(listener),
    onError: () => {},
    terminate: () => {},
  };
}

/** The worker's core run in process: the same code path as the trace worker, minus postMessage. */
const inProcessLoader: TraceLoader = {
  open(source, onMessage) {
    let live = true;
    const total = typeof source === 'string' ? source.length : source.size;
    void readTrace(chunksOf(source), total, (message) => live && onMessage(message), 3);
    return () => {
      live = false;
    };
  },
};

async function liveSession(framing: 'ndjson' | 'content-length'): Promise<LiveSessionStore> {
  const host = createWorkerHost({ createWorker: inMemoryWorker });
  const session = new LiveSessionStore({ selectHost: async () => ({ host, availability: [] }) });
  await session.probeHosts();
  session.setFraming(framing);
  await session.runHandshake();
  await session.stopServer();
  return session;
}

const HEADER = { format: TRACE_FORMAT, version: 1, mode: 'stdio', framing: 'ndjson', framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'test', program: ['node', 's.js'] };
const b64 = (text: string) => btoa(text);
const lines = (...values: unknown[]) => values.map((value) => `${typeof value === 'string' ? value : JSON.stringify(value)}\n`).join('');

function bytesOf(entries: readonly LogEntry[]): string[] {
  return entries.map((entry) => (entry.type === 'bytes' ? `${entry.direction}:${Array.from(entry.bytes).join(',')}` : entry.type === 'stderr' ? `stderr:${entry.text}` : entry.type));
}

describe('export → open: a live session round-trips byte for byte', () => {
  for (const framing of ['ndjson', 'content-length'] as const) {
    it(`${framing}: the opened trace's log has the live log's chunks, frames and kinds`, async () => {
      const session = await liveSession(framing);
      const run = session.lastRun();
      expect(run?.events.length).toBeGreaterThan(4);
      const text = traceText(run!);
      // A valid trace by the format's own reader.
      const parsed = parseTrace(text);
      expect('error' in parsed).toBe(false);

      const store = new TraceStore(inProcessLoader);
      expect(await store.open('live.jsonl', new Blob([text]))).toBe('opened');
      const live = session.getSnapshot().log.entries;
      const opened = store.getSnapshot().log.entries;
      // The live log also holds the page's own "closed" notice, which no tap event carries.
      expect(bytesOf(opened)).toEqual(bytesOf(live.filter((entry) => entry.type !== 'closed')));
      const frames = (entries: readonly LogEntry[]) => entries.flatMap((entry) => (entry.type === 'bytes' ? entry.frames.map((frame) => [frame.type, frame.type === 'message' ? frame.kind : '', frame.length]) : []));
      expect(frames(opened)).toEqual(frames(live));
      expect(store.getSnapshot().framing).toBe(framing);
      expect(store.getSnapshot().methods).toEqual(methodsOf(live));
      // Saving the opened trace's events again gives the same file.
      expect(serializeTrace(traceOfRun(run!))).toBe(text);
    });
  }

  it('writes an HTTP session as a valid http trace that opens (connections as rows; bodiless messages carry no frames)', async () => {
    const text = httpTraceText({
      started: '2026-12-01T16:00:00.000Z',
      host: 'worker',
      program: ['mcp-http'],
      events: [
        { tap: 1, ev: 'open', t: 0, conn: 1 },
        { tap: 1, ev: 'c2s', t: 1, conn: 1, b64: btoa('POST /mcp HTTP/1.1\r\n\r\n') },
        { tap: 1, ev: 's2c', t: 2, conn: 1, b64: btoa('HTTP/1.1 202 Accepted\r\n\r\n') },
        { tap: 1, ev: 'close', t: 3, conn: 1, by: 'client' },
      ],
    });
    expect('error' in parseTrace(text)).toBe(false);
    const store = new TraceStore(inProcessLoader);
    expect(await store.open('http.jsonl', text)).toBe('opened');
    expect(store.getSnapshot().log.entries.map((entry) => (entry.type === 'bytes' ? [entry.direction, entry.frames.length, entry.text.split('\r')[0]] : entry.type === 'connection' ? [entry.conn, entry.state] : entry.type))).toEqual([
      [1, 'open'],
      ['c2s', 0, 'POST /mcp HTTP/1.1'],
      ['s2c', 0, 'HTTP/1.1 202 Accepted'],
      [1, 'close'],
    ]);
  });

  it('names the file after the start time, without characters file systems refuse', () => {
    expect(traceFileName('2026-12-01T16:00:00.123Z')).toBe('mcp-trace-2026-12-01T16-00-00Z.jsonl');
  });
});

describe('opening a trace', () => {
  const good = lines(HEADER, { tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['node'] }, { tap: 1, ev: 'c2s', t: 1, b64: b64('{"jsonrpc":"2.0","id":1,"method":"ping"}\n') }, { tap: 1, ev: 's2c', t: 2, b64: b64('{"jsonrpc":"2.0","id":1,"result":{}}\n') });

  it('sends entries in batches with progress, and finishes with the counts', async () => {
    const messages: TraceWorkerToPage[] = [];
    await readTrace(chunksOf(new Blob([good])), good.length, (message) => messages.push(message), 2);
    expect(messages.map((message) => message.type)).toEqual(expect.arrayContaining(['header', 'entries', 'progress', 'done']));
    expect(messages.filter((message) => message.type === 'entries').map((message) => message.batch.entries.length)).toEqual([2, 1]);
    expect(messages.at(-1)).toEqual({ type: 'done', events: 3, bytes: good.length, methods: ['ping'] });
  });

  const bad: [string, string, number, RegExp][] = [
    ['malformed', good.replace('"ev":"c2s"', '"ev":"c2s",'), 3, /^line 3: not JSON/],
    ['truncated', good.slice(0, -20), 4, /^line 4: the last line is cut off/],
    ['another version', lines({ ...HEADER, version: 2 }), 1, /^line 1: trace format version 2/],
    ['a bare tap log', lines({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['x'] }), 1, /^line 1: a tap event/],
    ['empty', '', 1, /^line 1: the file is empty/],
  ];
  for (const [what, text, line, message] of bad) {
    it(`refuses ${what}, naming line ${line}, and keeps the trace shown before`, async () => {
      const store = new TraceStore(inProcessLoader);
      await store.open('good.jsonl', good);
      const before = store.getSnapshot();
      expect(await store.open('bad.jsonl', new Blob([text]))).toBe('failed');
      const after = store.getSnapshot();
      expect(after.failure).toMatchObject({ name: 'bad.jsonl', line });
      expect(after.failure?.message).toMatch(message);
      expect(after.log).toBe(before.log);
      expect(after.trace).toBe(before.trace);
      expect(after.loading).toBeNull();
    });
  }

  it('shows the rows read so far while it reads, beside the trace shown before, which a file that turns out bad leaves as it was', async () => {
    // The real worker's messages for a good trace, replayed by hand: rows, then a failure.
    const sent: TraceWorkerToPage[] = [];
    await readTrace(chunksOf(good), good.length, (message) => sent.push(message), 1);
    let deliver: (message: TraceWorkerToPage) => void = () => {};
    let manual = false;
    const loader: TraceLoader = {
      open(source, onMessage) {
        if (!manual) return inProcessLoader.open(source, onMessage);
        deliver = onMessage;
        return () => {};
      },
    };
    const store = new TraceStore(loader);
    await store.open('before.jsonl', good);
    const before = store.getSnapshot();
    manual = true;
    const opening = store.open('growing.jsonl', 'x'.repeat(good.length));
    expect(store.getSnapshot().reading).toBeNull();
    for (const message of sent.filter((message) => message.type !== 'done')) deliver(message);
    const reading = store.getSnapshot();
    expect(reading.reading).toMatchObject({ name: 'growing.jsonl' });
    expect(reading.reading!.source.getSnapshot().log.entries.map((entry) => entry.type)).toEqual(['spawn', 'bytes', 'bytes']);
    // The trace shown before is untouched meanwhile (its view stays mounted, hidden).
    expect(reading.log).toBe(before.log);
    expect(reading.trace).toBe(before.trace);
    expect(reading.loading).toMatchObject({ name: 'growing.jsonl', events: 3 });
    deliver({ type: 'failed', error: { code: 'json', line: 5, message: 'line 5: not JSON' } });
    expect(await opening).toBe('failed');
    const after = store.getSnapshot();
    expect(after.reading).toBeNull();
    expect(after.log).toBe(before.log);
    expect(after.trace).toBe(before.trace);
    expect(after.failure).toMatchObject({ name: 'growing.jsonl', line: 5 });
  });

  it('a trace read to the end keeps the rows shown while reading and adds the summary (reading ends)', async () => {
    const store = new TraceStore(inProcessLoader);
    const seen: (string | null)[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().reading?.name ?? null));
    expect(await store.open('whole.jsonl', good)).toBe('opened');
    expect(seen).toContain('whole.jsonl');
    expect(store.getSnapshot()).toMatchObject({ reading: null, trace: { name: 'whole.jsonl' } });
    expect(store.getSnapshot().log.entries).toHaveLength(3);
  });

  it('a newer open abandons the one in progress', async () => {
    const store = new TraceStore(inProcessLoader);
    const first = store.open('one', good);
    const second = store.open('two', good);
    expect(await first).toBe('abandoned');
    expect(await second).toBe('opened');
    expect(store.getSnapshot().trace?.name).toBe('two');
  });
});

describe('a trace recorded between a client and a server', () => {
  it("marks the client's own process events, and leaves the server's unmarked", async () => {
    const header = { ...HEADER, mode: 'between', client: ['node', 'client.js'] };
    const text = lines(
      header,
      { tap: 1, ev: 'spawn', t: 0, pid: 1, argv: ['node', 's.js'] },
      { tap: 1, ev: 'spawn', t: 1, pid: 2, argv: ['node', 'client.js'], proc: 'client' },
      { tap: 1, ev: 'stderr', t: 2, b64: b64('client says hi\n'), proc: 'client' },
      { tap: 1, ev: 'stderr', t: 3, b64: b64('server says hi\n') },
      { tap: 1, ev: 'exit', t: 4, code: 0, signal: null, proc: 'client' },
    );
    const store = new TraceStore(inProcessLoader);
    expect(await store.open('between.jsonl', text)).toBe('opened');
    expect(store.getSnapshot().log.entries.map((entry) => [entry.type, entry.proc ?? 'server'])).toEqual([
      ['spawn', 'server'],
      ['spawn', 'client'],
      ['stderr', 'client'],
      ['stderr', 'server'],
      ['exit', 'client'],
    ]);
  });
});

describe('a trace in a link', () => {
  it('round-trips through #trace= and refuses a damaged link', async () => {
    const text = lines(HEADER, { tap: 1, ev: 'c2s', t: 1, b64: b64('{"jsonrpc":"2.0","id":1,"method":"ping"}\n') });
    const hash = await traceHash(text);
    expect(hash !== null && isTraceHash(hash)).toBe(true);
    expect(await readTraceHash(hash!)).toEqual({ ok: true, text });
    const damaged = `${hash!.slice(0, -3)}${hash!.endsWith('A') ? 'B' : 'A'}${hash!.slice(-2)}`;
    expect((await readTraceHash(damaged)).ok).toBe(false);
    expect(await readTraceHash('#trace=2.00000000.AAAA')).toEqual({ ok: false, reason: 'format' });
  });
});

describe("the byte inspector's frame as a file", () => {
  it('writes hex 16 bytes a line, and binary as the bytes themselves', () => {
    const bytes = Uint8Array.from({ length: 18 }, (_, i) => i * 15);
    expect(frameHex(bytes)).toBe('00 0f 1e 2d 3c 4b 5a 69 78 87 96 a5 b4 c3 d2 e1\nf0 ff\n');
    expect(frameFile(bytes, 'hex', 's2c', 40)).toMatchObject({ name: 'frame-s2c-40.hex', type: 'text/plain' });
    const binary = frameFile(bytes, 'binary', 'c2s', 0);
    expect(binary).toMatchObject({ name: 'frame-c2s-0.bin', type: 'application/octet-stream' });
    expect(binary.data).toBe(bytes);
  });
});

describe('entries packed for the trip from the worker', () => {
  it('unpack to the same entries: bytes, frames, values, and the stream-decoded text of split characters', () => {
    const decoder = new TapEventDecoder(getFraming('content-length'));
    const frame = getFraming('content-length').encode({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: '你好' } });
    const cut = frame.indexOf(0xe4) + 1; // inside 你
    const entries = [
      decoder.decode({ tap: 1, ev: 'spawn', t: 0, pid: 2, argv: ['x'] }),
      decoder.decode({ tap: 1, ev: 'c2s', t: 1, b64: btoa(String.fromCharCode(...frame.slice(0, cut))) }),
      decoder.decode({ tap: 1, ev: 'c2s', t: 2, b64: btoa(String.fromCharCode(...frame.slice(cut))) }),
      decoder.decode({ tap: 1, ev: 'stderr', t: 3, b64: btoa('oops') }),
    ];
    const packed = packEntries(entries);
    expect(packed.bytes.byteLength).toBe(frame.length);
    const unpacked = unpackEntries(structuredClone(packed));
    const plain = (list: typeof entries) => list.map((entry) => (entry.type === 'bytes' ? { seq: entry.seq, t: entry.t, direction: entry.direction, bufferedBytes: entry.bufferedBytes, text: entry.text, bytes: Array.from(entry.bytes), frames: entry.frames.map((f) => (f.type === 'message' ? { kind: f.kind, method: f.method, id: f.id, length: f.length, startedEarlier: f.startedEarlier, value: f.value } : f)) } : entry));
    expect(plain(unpacked)).toEqual(plain(entries));
    expect(splitsACharacter(frame.slice(0, cut))).toBe(true);
    expect(splitsACharacter(frame.slice(cut))).toBe(true);
    expect(splitsACharacter(new TextEncoder().encode('a你b'))).toBe(false);
  });

  it('the worker\'s way (frame JSON as spans of the bytes, text left for the page) unpacks to exactly the live log\'s entries, for any messages in any cuts, in both framings', async () => {
    const message = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(50), method: fc.constantFrom('tools/call', 'ping'), params: fc.record({ text: fc.string({ unit: fc.constantFrom('a', ' ', '你', '😀', '"', '\\', '\r') }) }) }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(50), result: fc.record({ n: fc.integer() }) }),
      fc.constant('not json at all'),
    );
    const stream = fc.record({
      framing: fc.constantFrom('ndjson' as const, 'content-length' as const),
      crlf: fc.boolean(),
      messages: fc.array(fc.tuple(fc.constantFrom('c2s' as const, 's2c' as const), message), { minLength: 1, maxLength: 8 }),
      cuts: fc.array(fc.nat(400), { maxLength: 12 }),
      invalidByte: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(stream, async ({ framing, crlf, messages, cuts, invalidByte }) => {
        const encoder = new TextEncoder();
        const events: { ev: 'c2s' | 's2c'; bytes: Uint8Array }[] = [];
        for (const [ev, value] of messages) {
          let bytes = typeof value === 'string' ? encoder.encode(framing === 'ndjson' ? `${value}\n` : `Content-Length: ${encoder.encode(value).length}\r\n\r\n${value}`) : getFraming(framing).encode(value);
          if (framing === 'ndjson' && crlf) bytes = Uint8Array.from([...bytes.subarray(0, -1), 0x0d, 0x0a]);
          // A stray lead byte with nothing after it: invalid UTF-8 between chunks.
          if (invalidByte && ev === 's2c') bytes = Uint8Array.from([0xe4, ...bytes]);
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          let from = 0;
          for (const point of [...points, bytes.length]) {
            if (point > from) events.push({ ev, bytes: bytes.slice(from, point) });
            from = Math.max(from, point);
          }
        }
        const header = { format: TRACE_FORMAT, version: 1, mode: 'stdio', framing, framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'test', program: ['node', 'x.js'] };
        const lines = [header, ...events.map((event, i) => ({ tap: 1, ev: event.ev, t: i, b64: btoa(String.fromCharCode(...event.bytes)) }))].map((line) => JSON.stringify(line));
        const text = `${lines.join('\n')}\n`;

        const live = new TapEventDecoder(getFraming(framing));
        const expected = events.map((event, i) => live.decode({ tap: 1, ev: event.ev, t: i, b64: btoa(String.fromCharCode(...event.bytes)) }));
        const shipped: LogEntry[] = [];
        await readTrace(chunksOf(text), text.length, (sent) => {
          if (sent.type === 'entries') shipped.push(...unpackEntries(structuredClone(sent.batch)));
        }, 3);
        const plain = (list: LogEntry[]) => list.map((entry) => (entry.type === 'bytes' ? { seq: entry.seq, direction: entry.direction, bufferedBytes: entry.bufferedBytes, text: entry.text, bytes: Array.from(entry.bytes), frames: entry.frames.map((f) => (f.type === 'message' ? { kind: f.kind, method: f.method, id: f.id, length: f.length, startedEarlier: f.startedEarlier, value: f.value, json: JSON.stringify(JSON.parse((f as { json?: string }).json ?? 'null')) } : f)) } : entry));
        const withJson = (list: LogEntry[]) => plain(list).map((entry) => ('frames' in entry ? { ...entry, frames: entry.frames.map((f) => ('value' in f ? { ...f, json: JSON.stringify(f.value) } : f)) } : entry));
        expect(plain(shipped)).toEqual(withJson(expected));
      }),
      { numRuns: 300 },
    );
  });
});


describe('the read-only sequence diagram of a trace', () => {
  it('draws the log\'s frames and exits a page at a time, each arrow pointing back at its log frame', async () => {
    const session = await liveSession('ndjson');
    const entries = session.getSnapshot().log.entries;
    const frames = entries.flatMap((entry) => (entry.type === 'bytes' ? entry.frames.map((_, index) => ({ seq: entry.seq, frameIndex: index })) : []));
    const all = diagramPage(entries, 0, 1000);
    expect(all.total).toBe(frames.length + entries.filter((entry) => entry.type === 'exit').length);
    expect([...all.frames.values()]).toEqual(frames);
    expect(all.records[0]!.arrows.map((arrow) => arrow.kind).slice(0, 2)).toEqual(['request', 'response']);
    const second = diagramPage(entries, 2, 3);
    expect(second.shown).toBe(3);
    expect([...second.frames.values()]).toEqual(frames.slice(2, 5));
    expect(second.records[0]!.arrows.map((arrow) => arrow.method)).toEqual(all.records[0]!.arrows.slice(2, 5).map((arrow) => arrow.method));
    expect(diagramPage([], 0).records).toEqual([]);
  });
});
