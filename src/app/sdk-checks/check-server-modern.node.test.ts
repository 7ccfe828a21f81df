import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { checkServerModern, MODERN_SERVER_CHECKS } from './check-server-modern.ts';
import { builtProgramPath, learnerServerWire, programWire, protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

const reference = () => readFileSync(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(stopAllWires);

const statuses = (report: Awaited<ReturnType<typeof checkServerModern>>) => Object.fromEntries(report.tests.map((test) => [test.id, test.status]));

describe('Check my server with SDK 2.4.0: a 2026-07-28 client against a handshake-era server', () => {
  it("passes against the learner's server when it is the reference: the probe is refused, the client falls back", async () => {
    const report = await checkServerModern(learnerServerWire(reference(), modules));
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(MODERN_SERVER_CHECKS.map((check) => [check.id, 'pass', undefined]));
  });

  it('against a legacy-only echo server (--era=legacy) too, a real Node process behind the tap', async () => {
    const report = await checkServerModern(programWire(builtProgramPath('echo-server'), ['--framing=ndjson', '--era=legacy']));
    expect(statuses(report)).toEqual(Object.fromEntries(MODERN_SERVER_CHECKS.map((check) => [check.id, 'pass'])));
  });

  it('passes against a dual-era server without a fallback: it answers server/discover itself', async () => {
    const report = await checkServerModern(programWire(builtProgramPath('echo-server'), ['--framing=ndjson']));
    expect(statuses(report)).toEqual(Object.fromEntries(MODERN_SERVER_CHECKS.map((check) => [check.id, 'pass'])));
  });

  it('fails the probe check when the server answers server/discover with something that is neither a result nor an error', async () => {
    const odd = reference().replace(/(\n\s*)(if \(method === 'initialize'\))/, "$1if (method === 'server/discover') return { jsonrpc: '2.0', id } as never;$1$2");
    expect(odd).not.toBe(reference());
    const report = await checkServerModern(learnerServerWire(odd, modules), { limitMs: 600 });
    expect(statuses(report)['probe-fallback']).toBe('fail');
  });

  it('fails with the reason when the server stays silent on an unknown method before initialize', async () => {
    // A server that never answers what it does not know leaves the probe hanging.
    const silent = reference().replace('async handle(', 'async handle(').replace(/(\n\s*)(if \(method === 'initialize'\))/, "$1if (method === 'server/discover') return new Promise<never>(() => {});$1$2");
    expect(silent).not.toBe(reference());
    const report = await checkServerModern(learnerServerWire(silent, modules), { limitMs: 600 });
    expect(statuses(report)['probe-fallback']).toBe('fail');
  });
});
