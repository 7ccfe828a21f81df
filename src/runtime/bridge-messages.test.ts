import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_NAMES } from '../protocol/faults.ts';
import { FRAMING_NAMES } from '../protocol/framing/types.ts';
import { BRIDGE_PROGRAMS, LEARNER_CODE_REFUSALS, SHARED_BRIDGE_LEARNER_REFUSAL, encodeBridgeReply, parseBridgeReply, parseStartMessage, programArguments } from './bridge-messages.ts';

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

  it('passes a non-default era from the closed set as --era, and writes nothing for dual', () => {
    const legacy = parseStartMessage(start({ program: 'echo-server', framing: 'ndjson', faults: [], era: 'legacy' }));
    expect(legacy).toEqual({ ok: true, spec: { program: 'echo-server', framing: 'ndjson', faults: [], era: 'legacy' } });
    expect(legacy.ok && programArguments(legacy.spec)).toEqual(['--framing=ndjson', '--era=legacy']);
    const dual = parseStartMessage(start({ program: 'echo-server', framing: 'ndjson', era: 'dual' }));
    expect(dual.ok && programArguments(dual.spec)).toEqual(['--framing=ndjson']);
  });

  it.each([
    ['an era outside the set', { program: 'echo-server', framing: 'ndjson', era: 'legacy --fault=x' }, /unknown era/],
    ['an era that is not a string', { program: 'echo-server', framing: 'ndjson', era: ['legacy'] }, /unknown era/],
    ['an era for the SDK server', { program: 'sdk-echo-server', framing: 'ndjson', era: 'legacy' }, /only with program echo-server/],
  ])('refuses %s', (_name, fields, reason) => {
    const check = parseStartMessage(start(fields));
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it('starts sdk2-echo-server with no arguments, or --era=modern (its modern mode), and nothing else', () => {
    const both = parseStartMessage(start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [] }));
    expect(both.ok && programArguments(both.spec)).toEqual([]);
    const modern = parseStartMessage(start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [], era: 'modern' }));
    expect(modern.ok && programArguments(modern.spec)).toEqual(['--era=modern']);
    for (const fields of [{ era: 'legacy' }, { faults: ['no-gate'] }, { framing: 'content-length' }]) {
      expect(parseStartMessage(start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [], ...fields })).ok).toBe(false);
    }
  });

  it('gives sdk-echo-server no arguments at all', () => {
    const check = parseStartMessage(start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] }));
    expect(check.ok && programArguments(check.spec)).toEqual([]);
  });

  describe('learner-server', () => {
    const source = { code: 'export class McpServer {}', file: 'server.ts', moduleId: '@protocol/server' };
    const loopback = { learnerCode: 'sandboxed' } as const;

    it('is accepted on a loopback bridge with its checked source, and gets no command-line arguments', () => {
      const check = parseStartMessage(start({ program: 'learner-server', framing: 'ndjson', faults: ['split-writes'], learnerServer: source }), loopback);
      expect(check).toEqual({ ok: true, spec: { program: 'learner-server', framing: 'ndjson', faults: ['split-writes'], learnerServer: source } });
      expect(check.ok && programArguments(check.spec)).toEqual([]);
    });

    it('is refused by default, by a shared bridge and without a sandbox, with the reason the page shows', () => {
      const text = start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: source });
      expect(parseStartMessage(text)).toEqual({ ok: false, reason: LEARNER_CODE_REFUSALS['not-enabled'] });
      expect(LEARNER_CODE_REFUSALS['not-enabled']).toContain('--learner-code-in-node');
      expect(parseStartMessage(text, { learnerCode: 'shared-bridge' })).toEqual({ ok: false, reason: SHARED_BRIDGE_LEARNER_REFUSAL });
      expect(parseStartMessage(text, { learnerCode: 'no-sandbox' })).toEqual({ ok: false, reason: LEARNER_CODE_REFUSALS['no-sandbox'] });
    });

    it.each([
      ['no source', { program: 'learner-server', framing: 'ndjson' }, /needs the learnerServer field/],
      ['a source for the echo server', { program: 'echo-server', framing: 'ndjson', learnerServer: source }, /only with program learner-server/],
      ['a path as file name', { program: 'learner-server', framing: 'ndjson', learnerServer: { ...source, file: '/tmp/x.ts' } }, /plain file name/],
      ['a framing-only fault elsewhere', { program: 'learner-server', framing: 'ndjson', faults: ['char-length'], learnerServer: source }, /only applies/],
    ])('refuses %s', (_name, fields, reason) => {
      const check = parseStartMessage(start(fields), loopback);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.reason).toMatch(reason);
    });
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
        era: fc.oneof(fc.constantFrom('dual', 'legacy', 'modern'), fc.string()),
        tools: fc.oneof(fc.constantFrom('echo', 'conformance', 'features'), fc.string()),
        auth: fc.oneof(fc.constant('self'), fc.string()),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(anyStart.map((value) => JSON.stringify(value)), fc.string()), (text) => {
        const check = parseStartMessage(text);
        if (!check.ok) return;
        expect(BRIDGE_PROGRAMS).toContain(check.spec.program);
        // mcp-http's port is always 0 (the OS picks one; the page never names it).
        const allowedArgs = [...FRAMING_NAMES.map((name) => `--framing=${name}`), ...FAULT_NAMES.map((name) => `--fault=${name}`), '--port=0', '--era=legacy', '--era=modern', '--tools=conformance', '--tools=features', '--auth=self'];
        for (const arg of programArguments(check.spec)) expect(allowedArgs).toContain(arg);
      }),
      { numRuns: 500 },
    );
  });
});

describe('mcp-http start messages', () => {
  it('run the HTTP server on a port of its own choosing, with only the faults that mean something over HTTP', () => {
    const ok = parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":["no-gate"]}');
    expect(ok.ok && programArguments(ok.spec)).toEqual(['--port=0', '--fault=no-gate']);
    expect(parseStartMessage('{"type":"start","program":"mcp-http","framing":"content-length","faults":[]}')).toMatchObject({ ok: false, reason: expect.stringContaining('ndjson') });
    expect(parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":["stdout-log"]}')).toMatchObject({ ok: false, reason: expect.stringContaining('stdout-log') });
    expect(parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"port":22}')).toMatchObject({ ok: false, reason: expect.stringContaining('"port"') });
  });

  it('take a tool set from the closed list (features: the live panel’s demo), and only for mcp-http', () => {
    const features = parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"tools":"features"}');
    expect(features.ok && programArguments(features.spec)).toEqual(['--port=0', '--tools=features']);
    const echo = parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"tools":"echo"}');
    expect(echo.ok && programArguments(echo.spec)).toEqual(['--port=0']);
    expect(parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"tools":"--inspect"}')).toMatchObject({ ok: false, reason: expect.stringContaining('unknown tools') });
    expect(parseStartMessage('{"type":"start","program":"echo-server","framing":"ndjson","faults":[],"tools":"features"}')).toMatchObject({ ok: false, reason: expect.stringContaining('only with program mcp-http') });
  });

  it('take auth "self" (its own authorization server on its own origin) with the echo tools only, no fault, and for mcp-http alone', () => {
    const self = parseStartMessage('{"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"auth":"self"}');
    expect(self.ok && programArguments(self.spec)).toEqual(['--port=0', '--auth=self']);
    const refused = (fields: string) => parseStartMessage(`{"type":"start","framing":"ndjson",${fields}}`);
    expect(refused('"program":"mcp-http","faults":[],"auth":"http://evil.example"')).toMatchObject({ ok: false, reason: expect.stringContaining('"self"') });
    expect(refused('"program":"echo-server","faults":[],"auth":"self"')).toMatchObject({ ok: false, reason: expect.stringContaining('only with program mcp-http') });
    expect(refused('"program":"mcp-http","faults":[],"tools":"features","auth":"self"')).toMatchObject({ ok: false, reason: expect.stringContaining('echo tools') });
    expect(refused('"program":"mcp-http","faults":["no-gate"],"auth":"self"')).toMatchObject({ ok: false, reason: expect.stringContaining('no faults') });
  });
});

describe('sdk-http-server start messages', () => {
  it("run the SDK's Streamable HTTP server with no arguments at all: no faults, no era, no port, ndjson only", () => {
    const ok = parseStartMessage('{"type":"start","program":"sdk-http-server","framing":"ndjson","faults":[]}');
    expect(ok.ok && programArguments(ok.spec)).toEqual([]);
    for (const fields of ['"faults":["no-gate"]', '"faults":[],"era":"modern"', '"faults":[],"port":22', '"faults":[],"tools":"features"']) {
      expect(parseStartMessage(`{"type":"start","program":"sdk-http-server","framing":"ndjson",${fields}}`).ok).toBe(false);
    }
    expect(parseStartMessage('{"type":"start","program":"sdk-http-server","framing":"content-length","faults":[]}')).toMatchObject({ ok: false, reason: expect.stringContaining('ndjson') });
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
