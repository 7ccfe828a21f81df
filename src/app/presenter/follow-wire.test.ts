import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FollowMessage } from './follow-message.ts';
import { decodeFollowWire, encodeFollowWire } from './follow-wire.ts';

describe('a follow message as text (the room relay)', () => {
  it('brings back any bytes anywhere in the message as bytes, and everything else as it was', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 5 }), json, (chunks, other) => {
        const message = { type: 'http-state', protocol: 1, presenter: 'p', state: { chunks, nested: { bytes: chunks[0] ?? new Uint8Array() }, other } } as unknown as FollowMessage;
        const back = decodeFollowWire(encodeFollowWire(message)) as { state: { chunks: Uint8Array[]; nested: { bytes: Uint8Array }; other: unknown } };
        expect(back.state.chunks.map((chunk) => chunk instanceof Uint8Array)).toEqual(chunks.map(() => true));
        expect(back.state.chunks.map((chunk) => Array.from(chunk))).toEqual(chunks.map((chunk) => Array.from(chunk)));
        expect(Array.from(back.state.nested.bytes)).toEqual(Array.from(chunks[0] ?? []));
        expect(back.state.other).toEqual(JSON.parse(JSON.stringify(other)));
      }),
    );
  });

  it('leaves bytes that do not decode as an object (the follow view’s check refuses it), and text that is not JSON as nothing', () => {
    expect(decodeFollowWire('{"bytes":{"$bytes":"!!"}}')).toEqual({ bytes: { $bytes: '!!' } });
    expect(decodeFollowWire('{"bytes":{"$bytes":"AQ","x":1}}')).toEqual({ bytes: { $bytes: 'AQ', x: 1 } });
    expect(decodeFollowWire('not json')).toBeUndefined();
  });
});
