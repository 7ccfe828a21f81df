import { describe, expect, it } from 'vitest';
import type { ByteTransport } from '../../protocol/transport.ts';
import { heldWrites } from './held-writes.ts';
import { watchServer } from './server-watch.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function recorder() {
  const writes: string[] = [];
  let ended = false;
  const inner: ByteTransport = {
    write: (bytes) => writes.push(new TextDecoder().decode(bytes)),
    end: () => {
      ended = true;
    },
    onData: () => () => {},
    onClose: () => () => {},
  };
  return { inner, writes, ended: () => ended };
}

describe('heldWrites', () => {
  it('passes writes straight on until asked to hold, then merges the held ones into one write', async () => {
    const { inner, writes } = recorder();
    const stdin = heldWrites(inner);
    stdin.write(encode('a\n'));
    const both = stdin.holdUntilLines(2);
    let reached = false;
    void both.then(() => (reached = true));
    stdin.write(encode('{"id":1'));
    stdin.write(encode('}\n'));
    await Promise.resolve();
    expect([writes, reached]).toEqual([['a\n'], false]);
    stdin.write(encode('{"id":2}\n'));
    await both;
    stdin.release();
    stdin.write(encode('c\n'));
    expect(writes).toEqual(['a\n', '{"id":1}\n{"id":2}\n', 'c\n']);
  });

  it('lets held bytes out before ending stdin', () => {
    const { inner, writes, ended } = recorder();
    const stdin = heldWrites(inner);
    void stdin.holdUntilLines(2);
    stdin.write(encode('x\n'));
    stdin.end();
    expect([writes, ended()]).toEqual([['x\n'], true]);
  });
});

/** A tap event without its stamp; distributes over the union so each kind keeps its fields. */
type Body<E = TapEvent> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;

describe('watchServer', () => {
  it("keeps the client's bytes and the stderr lines, and goes down with the exit and the last stderr line", async () => {
    const listeners: Array<(event: TapEvent) => void> = [];
    const watch = watchServer({ onTapEvent: (listener) => (listeners.push(listener), () => {}), onClose: () => () => {} });
    const emit = (event: Body) => listeners.forEach((listener) => listener({ tap: 1, t: 0, ...event } as TapEvent));
    emit({ ev: 'c2s', b64: b64('{"a":') });
    emit({ ev: 'c2s', b64: b64('1}\n') });
    emit({ ev: 'stderr', b64: b64('[learner-server] one\n[learner-server] tw') });
    emit({ ev: 'stderr', b64: b64('o\n') });
    expect(watch.downReason).toBeNull();
    emit({ ev: 'exit', code: 1, signal: null });
    await expect(watch.down).resolves.toBe('server exited with code 1; its last stderr line: [learner-server] two');
    expect(new TextDecoder().decode(watch.clientBytes())).toBe('{"a":1}\n');
    expect(watch.stderrLines()).toEqual(['[learner-server] one', '[learner-server] two']);
    expect(watch.exit).toEqual({ code: 1, signal: null });
  });
});
