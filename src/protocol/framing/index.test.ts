import { describe, expect, it } from 'vitest';
import { contentLengthFraming, DEFAULT_MAX_MESSAGE_BYTES, FRAMING_NAMES, getFraming, ndjsonFraming } from './index.ts';

describe('getFraming', () => {
  it('returns the framing with that name, for every name', () => {
    expect(getFraming('content-length')).toBe(contentLengthFraming);
    expect(getFraming('ndjson')).toBe(ndjsonFraming);
    for (const name of FRAMING_NAMES) expect(getFraming(name).name).toBe(name);
  });

  it('re-exports the shared constants', () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('gives each reader its own state', () => {
    const framing = getFraming('ndjson');
    const first = framing.createReader();
    const second = framing.createReader();
    first.push(new TextEncoder().encode('{"half":'));
    expect(first.bufferedBytes).toBe(8);
    expect(second.bufferedBytes).toBe(0);
  });
});
