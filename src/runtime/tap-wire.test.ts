import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { createTapWire, describeExit, tapLinesOf, type LineChannel } from './tap-wire.ts';
import { bytesToBase64, encodeTapEvent, parseTapCommand, parseTapEvent, type TapEvent } from './tap-protocol.ts';
import { ListenerSet } from './listener-set.ts';

/** A LineChannel the test drives by hand: `receive` plays the tap, `sent` records the commands. */
class FakeLineChannel implements LineChannel {
  readonly sent: string[] = [];
  closeCalls = 0;
  private readonly lines = new ListenerSet<string>();
  private readonly closes = new ListenerSet<string>();

  send(line: string): void {
    this.sent.push(line);
  }
  close(): void {
    this.closeCalls++;
  }
  onLine(listener: (line: string) => void) {
    return this.lines.add(listener);
  }
  onClose(listener: (reason: string) => void) {
    return this.closes.add(listener);
  }
  receive(line: string): void {
    this.lines.emit(line);
  }
  receiveEvent(event: TapEvent): void {
    this.receive(encodeTapEvent(event));
  }
  drop(reason: string): void {
    this.closes.emit(reason);
  }
  get listenerCount(): number {
    return this.lines.size + this.closes.size;
  }
}

const bytes = (text: string) => new TextEncoder().encode(text);
const s2c = (chunk: Uint8Array, t = 1): TapEvent => ({ tap: 1, ev: 's2c', t, b64: bytesToBase64(chunk) });

afterEach(() => {
  vi.useRealTimers();
});

describe('createTapWire', () => {
  it('sends write, eof and kill as tap command lines', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    const payload = bytes('Content-Length: 2\r\n\r\n{}你');
    wire.write(payload);
    wire.end();
    wire.end(); // a second EOF is pointless: sent once
    wire.kill();
    expect(wire.host).toBe('bridge');
    expect(channel.sent.map(parseTapCommand)).toEqual([{ cmd: 'write', b64: bytesToBase64(payload) }, { cmd: 'eof' }, { cmd: 'kill' }]);
  });

  it('delivers s2c bytes exactly and in order, and every event to tap listeners', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('webcontainer', channel);
    const chunks: Uint8Array[] = [];
    const events: TapEvent[] = [];
    wire.onData((chunk) => chunks.push(chunk));
    wire.onTapEvent((event) => events.push(event));
    const first = new Uint8Array([0xe4, 0xbd]); // "你" cut after two of its three bytes
    const second = new Uint8Array([0xa0, 0x0a]);
    const stderr: TapEvent = { tap: 1, ev: 'stderr', t: 2, b64: bytesToBase64(bytes('log\n')) };
    channel.receiveEvent(s2c(first, 1));
    channel.receiveEvent(stderr);
    channel.receiveEvent(s2c(second, 3));
    expect(chunks).toEqual([first, second]);
    expect(events.map((event) => event.ev)).toEqual(['s2c', 'stderr', 's2c']);
  });

  it('ignores lines that are not tap events', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    channel.receive('{"cmd":"write","b64":"aGk="}');
    channel.receive('hello');
    channel.receive('{"tap":1,"ev":"s2c","t":1,"b64":"not base64!"}');
    expect(events).toEqual([]);
  });

  it('replays events that arrived before the first listener', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('worker', channel);
    const spawn: TapEvent = { tap: 1, ev: 'spawn', t: 0, pid: 0, argv: ['node', 'echo-server.mjs'] };
    channel.receiveEvent(spawn);
    channel.receiveEvent(s2c(bytes('early')));
    const events: TapEvent[] = [];
    const chunks: Uint8Array[] = [];
    wire.onTapEvent((event) => events.push(event));
    wire.onData((chunk) => chunks.push(chunk));
    expect(events.map((event) => event.ev)).toEqual(['spawn', 's2c']);
    expect(chunks).toEqual([bytes('early')]);
  });

  it('closes once on the exit event, with a readable reason, and closes the channel', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    const reasons: string[] = [];
    const order: string[] = [];
    wire.onTapEvent((event) => order.push(event.ev));
    wire.onClose((reason) => {
      reasons.push(reason);
      order.push('close');
    });
    channel.receiveEvent({ tap: 1, ev: 'exit', t: 5, code: 1, signal: null });
    channel.receiveEvent({ tap: 1, ev: 'exit', t: 6, code: 0, signal: null });
    channel.drop('gone');
    expect(reasons).toEqual(['server exited with code 1']);
    expect(order).toEqual(['exit', 'close']);
    expect(channel.closeCalls).toBe(1);
    expect(channel.listenerCount).toBe(0);
  });

  it('names the signal when the server was stopped by one', () => {
    expect(describeExit({ code: null, signal: 'SIGTERM' })).toBe('server was stopped by SIGTERM');
    expect(describeExit({ code: 0, signal: null })).toBe('server exited with code 0');
  });

  it('closes with the channel reason when the channel goes away, and ignores later writes', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    const reasons: string[] = [];
    wire.onClose((reason) => reasons.push(reason));
    channel.drop('connection to the bridge lost');
    wire.write(bytes('late'));
    wire.end();
    expect(reasons).toEqual(['connection to the bridge lost']);
    expect(channel.sent).toEqual([]);
  });

  it('explains a close with the tap error that came before it', () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('webcontainer', channel);
    const reasons: string[] = [];
    wire.onClose((reason) => reasons.push(reason));
    channel.receiveEvent({ tap: 1, ev: 'error', t: 1, message: 'cannot spawn node: ENOENT' });
    channel.drop('the tap process ended with code 127');
    expect(reasons).toEqual(['cannot spawn node: ENOENT (the tap process ended with code 127)']);
  });

  it('tells a listener added after the close why, on a microtask', async () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    channel.drop('gone');
    const late = await new Promise<string>((resolve) => wire.onClose(resolve));
    expect(late).toBe('gone');
  });

  it('gives up on a kill that never reports an exit after the grace period', () => {
    vi.useFakeTimers();
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel, { killGraceMs: 500 });
    const reasons: string[] = [];
    wire.onClose((reason) => reasons.push(reason));
    wire.kill();
    vi.advanceTimersByTime(499);
    expect(reasons).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reasons).toEqual(['server killed (no exit report within 0.5 s)']);
    expect(channel.closeCalls).toBe(1);
  });

  it('does not fire the kill timeout when the exit arrives in time', () => {
    vi.useFakeTimers();
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel, { killGraceMs: 500 });
    const reasons: string[] = [];
    wire.onClose((reason) => reasons.push(reason));
    wire.kill();
    channel.receiveEvent({ tap: 1, ev: 'exit', t: 5, code: null, signal: 'SIGTERM' });
    vi.advanceTimersByTime(1000);
    expect(reasons).toEqual(['server was stopped by SIGTERM']);
  });

  it('keeps delivering to other listeners when one throws', async () => {
    const channel = new FakeLineChannel();
    const wire = createTapWire('bridge', channel);
    const thrown = new Promise<unknown>((resolve) => {
      const original = queueMicrotask;
      vi.spyOn(globalThis, 'queueMicrotask').mockImplementationOnce((callback) =>
        original(() => {
          try {
            callback();
          } catch (error) {
            resolve(error);
          }
        }),
      );
    });
    const received: number[] = [];
    wire.onData(() => {
      throw new Error('listener bug');
    });
    wire.onData((chunk) => received.push(chunk.length));
    channel.receiveEvent(s2c(bytes('abc')));
    expect(received).toEqual([3]);
    expect(await thrown).toEqual(new Error('listener bug'));
    vi.restoreAllMocks();
  });
});

describe('tapLinesOf', () => {
  const spawn = encodeTapEvent({ tap: 1, ev: 'spawn', t: 0, pid: 7, argv: ['node'] });
  const chunk = encodeTapEvent(s2c(bytes('{"jsonrpc":"2.0","id":1,"result":{}}\n'), 2));

  it('takes a message of one line as that line', () => {
    expect(tapLinesOf(spawn)).toEqual([spawn]);
  });

  it('splits a batch on \\n, in order, skipping blank lines', () => {
    expect(tapLinesOf(`${spawn}\n${chunk}`)).toEqual([spawn, chunk]);
    expect(tapLinesOf(`${spawn}\n\n${chunk}\n`)).toEqual([spawn, chunk]);
    expect(tapLinesOf('')).toEqual([]);
    expect(tapLinesOf(' \n ')).toEqual([]);
  });

  it('gives back every event of any batch of encoded events (property)', () => {
    const event = fc.oneof(
      fc.record({ tap: fc.constant(1 as const), ev: fc.constantFrom('c2s' as const, 's2c' as const, 'stderr' as const), t: fc.nat(), b64: fc.uint8Array({ maxLength: 64 }).map(bytesToBase64) }),
      fc.record({ tap: fc.constant(1 as const), ev: fc.constant('error' as const), t: fc.nat(), message: fc.string() }),
    );
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 10 }), (events) => {
        const message = events.map((tapEvent) => encodeTapEvent(tapEvent)).join('\n');
        expect(tapLinesOf(message).map(parseTapEvent)).toEqual(events);
      }),
    );
  });
});
