// fast-check generators for valid trace lines, shared by the reader's and the schema's tests.
// Lives in tests/support so the unit tests beside src and the integration tests share it.

import fc from 'fast-check';
import { bytesToBase64 } from '../../src/protocol/base64.ts';
import type { TraceEvent, TraceHeader } from '../../src/runtime/trace/trace-format.ts';

const argv = fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 4 });
const common = {
  format: fc.constant('mcp-playground-trace' as const),
  version: fc.constant(1 as const),
  framingSource: fc.constantFrom('given' as const, 'guessed' as const),
  started: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  recorder: fc.string({ minLength: 1 }),
};
const stdioFraming = fc.constantFrom('content-length' as const, 'ndjson' as const);
const url = fc.webUrl({ withQueryParameters: true });

export const arbHeader: fc.Arbitrary<TraceHeader> = fc.oneof(
  fc.record({ ...common, mode: fc.constant('stdio' as const), framing: stdioFraming, program: argv }),
  fc.record({ ...common, mode: fc.constant('between' as const), framing: stdioFraming, program: argv, client: argv }),
  fc.record(
    { ...common, mode: fc.constant('http' as const), framing: fc.constant('http' as const), program: argv, target: url, listen: url },
    { requiredKeys: ['format', 'version', 'framingSource', 'started', 'recorder', 'mode', 'framing'] },
  ),
);

const t = fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 10) / 10);
const b64 = fc.uint8Array({ maxLength: 64 }).map(bytesToBase64);
const conn = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(2 ** 31 - 1));
const proc = fc.constantFrom('client' as const, 'server' as const);
const base = { tap: fc.constant(1 as const), t };

/** Any valid event line, each optional field sometimes present (mode rules are not considered). */
export const arbEvent: fc.Arbitrary<TraceEvent> = fc.oneof(
  fc.record({ ...base, ev: fc.constant('spawn' as const), pid: fc.integer(), argv: fc.array(fc.string()), proc }, { requiredKeys: ['tap', 'ev', 't', 'pid', 'argv'] }),
  fc.record({ ...base, ev: fc.constantFrom('c2s' as const, 's2c' as const), b64, conn }, { requiredKeys: ['tap', 'ev', 't', 'b64'] }),
  fc.record({ ...base, ev: fc.constant('stderr' as const), b64, proc }, { requiredKeys: ['tap', 'ev', 't', 'b64'] }),
  fc.record(
    { ...base, ev: fc.constant('exit' as const), code: fc.option(fc.integer(), { nil: null }), signal: fc.option(fc.constantFrom('SIGTERM', 'SIGKILL'), { nil: null }), proc },
    { requiredKeys: ['tap', 'ev', 't', 'code', 'signal'] },
  ),
  fc.record({ ...base, ev: fc.constant('error' as const), message: fc.string(), proc, conn }, { requiredKeys: ['tap', 'ev', 't', 'message'] }),
  fc.record({ ...base, ev: fc.constant('open' as const), conn }),
  fc.record(
    { ...base, ev: fc.constant('close' as const), conn, by: fc.constantFrom('client' as const, 'server' as const), message: fc.string() },
    { requiredKeys: ['tap', 'ev', 't', 'conn'] },
  ),
);

/** A valid stdio-mode event sequence (no conn, no proc, no open/close). */
export const arbStdioEvent: fc.Arbitrary<TraceEvent> = arbEvent.filter(
  (event) => event.ev !== 'open' && event.ev !== 'close' && !('conn' in event) && !('proc' in event),
);

/** The keys of a generated header or event that the format requires (dropping one must be refused). */
export function requiredKeysOf(value: object): string[] {
  const fields = value as Record<string, unknown>;
  const optional = new Set(['proc']);
  if (fields.format !== undefined && fields.mode === 'http') ['program', 'target', 'listen'].forEach((key) => optional.add(key));
  if (fields.ev !== 'open' && fields.ev !== 'close') optional.add('conn');
  if (fields.ev === 'close') ['by', 'message'].forEach((key) => optional.add(key));
  return Object.keys(fields).filter((key) => !optional.has(key));
}
