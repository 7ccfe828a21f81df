import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES } from '../protocol/faults.ts';
import { FRAMING_NAMES } from '../protocol/framing/types.ts';
import { BRIDGE_PROGRAMS, encodeBridgeReply, parseBridgeReply, parseStartMessage, programArguments } from './bridge-messages.ts';

const start = (fields: Record<string, unknown>) => JSON.stringify({ type: 'start', ...fields });

describe('parseStartMessage', () => {
  it('accepts the echo server with a framing and faults, and builds its arguments', () => {
    const check = parseStartMessage(start({ program: 'echo-server', framing: 'content-length', faults: ['char-length', 'split-writes'] }));
    expect(check).toEqual({ ok: true, spec: { program: 'echo-server', framing: 'content-length', faults: ['char-length', 'split-writes'] } });
    if (check.ok) expect(programArguments(check.spec)).toEqual(['--framing=content-length', '--fault=char-length', '--fault=split-writes']);
  });

  it('treats missing faults as none', () => {
    expect(parseStartMessage(start({ program: 'echo-server', framing: 'ndjson' }))).toEqual({
      ok: true,
      spec: { program: 'echo-server', framing: 'ndjson', faults: [] },
    });
  });

  it('gives sdk-echo-server no arguments at all', () => {
    const check = parseStartMessage(start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] }));
    expect(check.ok && programArguments(check.spec)).toEqual([]);
  });

  it.each([
    ['no framing', start({ program: 'echo-server' }), /framing/],
    ['null faults', start({ program: 'echo-server', framing: 'ndjson', faults: null }), /faults/],
    ['a number as program', start({ program: 1, framing: 'ndjson' }), /program/],
    ['__proto__ field', '{"type":"start","program":"echo-server","framing":"ndjson","__proto__":{"x":1}}', /unknown field/],
    ['a framing-only fault elsewhere', start({ program: 'echo-server', framing: 'ndjson', faults: ['char-length'] }), /only applies/],
    ['sdk with faults', start({ program: 'sdk-echo-server', framing: 'ndjson', faults: ['no-gate'] }), /no faults/],
    ['sdk with content-length', start({ program: 'sdk-echo-server', framing: 'content-length' }), /ndjson only/],
    ['null', 'null', /object/],
  ])('refuses %s', (_name, text, reason) => {
    const check = parseStartMessage(text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it('never throws, and whatever it accepts uses only names from the closed sets', () => {
    const anyStart = fc.record(
      {
        type: fc.constantFrom('start', 'stop'),
        program: fc.oneof(fc.constantFrom(...BRIDGE_PROGRAMS), fc.string()),
        framing: fc.oneof(fc.constantFrom(...FRAMING_NAMES), fc.string()),
        faults: fc.oneof(fc.array(fc.constantFrom(...FAULT_NAMES), { maxLength: 4 }), fc.array(fc.string(), { maxLength: 2 }), fc.anything()),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(anyStart.map((value) => JSON.stringify(value)), fc.string()), (text) => {
        const check = parseStartMessage(text);
        if (!check.ok) return;
        expect(BRIDGE_PROGRAMS).toContain(check.spec.program);
        const allowedArgs = [...FRAMING_NAMES.map((name) => `--framing=${name}`), ...FAULT_NAMES.map((name) => `--fault=${name}`)];
        for (const arg of programArguments(check.spec)) expect(allowedArgs).toContain(arg);
      }),
      { numRuns: 500 },
    );
  });
});

describe('bridge replies', () => {
  it('round-trip, and anything else is not a reply', () => {
    expect(parseBridgeReply(encodeBridgeReply({ type: 'started' }))).toEqual({ type: 'started' });
    expect(parseBridgeReply(encodeBridgeReply({ type: 'refused', reason: 'no' }))).toEqual({ type: 'refused', reason: 'no' });
    expect(parseBridgeReply('{"tap":1,"ev":"spawn","t":1,"pid":2,"argv":[]}')).toBeNull();
    expect(parseBridgeReply('{"type":"refused"}')).toBeNull();
    expect(parseBridgeReply('not json')).toBeNull();
  });
});
