import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { checkServer, SERVER_CHECKS } from './check-server.ts';
import { builtProgramPath, learnerServerWire, programWire, protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const reference = () => read('src/protocol/server.ts');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(stopAllWires);

const statuses = (report: Awaited<ReturnType<typeof checkServer>>) => Object.fromEntries(report.tests.map((test) => [test.id, test.status]));

describe('Check my server: the official SDK client against a server', () => {
  it("passes every check against the project's echo server, a real Node process behind the tap", async () => {
    const report = await checkServer(programWire(builtProgramPath('echo-server'), ['--framing=ndjson']));
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(SERVER_CHECKS.map((check) => [check.id, 'pass', undefined]));
    expect(report.status).toBe('pass');
  });

  it("passes every check against the learner's server when it is the reference", async () => {
    const report = await checkServer(learnerServerWire(reference(), modules));
    expect(statuses(report)).toEqual(Object.fromEntries(SERVER_CHECKS.map((check) => [check.id, 'pass'])));
  });

  it('fails "unknown tool" against the SDK-built server, which answers an unknown tool as isError data (and has no fail tool)', async () => {
    const report = await checkServer(programWire(builtProgramPath('sdk-echo-server')));
    const unknown = report.tests.find((test) => test.id === 'unknown-tool')!;
    expect(unknown.status).toBe('fail');
    expect(unknown.actual).toContain('"isError": true');
    expect(unknown.actual).toContain('MCP error -32602: Tool no_such_tool not found');
    expect(report.tests.filter((test) => test.status !== 'pass').map((test) => test.id)).toEqual(['failing-tool', 'unknown-tool']);
  });

  it('fails the remaining checks with the load error when the server cannot start', async () => {
    const report = await checkServer(learnerServerWire('export class McpServer {\n  constructor( {\n}', modules));
    expect(report.status).toBe('fail');
    expect(report.tests[0]!.status).toBe('fail');
    expect(report.tests[0]!.message).toMatch(/server exited with code 3.*your server did not load: server\.ts:\d+/);
    expect(report.tests.slice(1).every((test) => test.status === 'fail' && /^Not run: the server is gone/.test(test.message!))).toBe(true);
  });

  it('fails a check that gets no answer in time, and does not wait for the rest', async () => {
    const hangsOnPing = reference().replace("if (method === 'ping') return encodeResult(id, {});", "if (method === 'ping') return new Promise<never>(() => {});");
    expect(hangsOnPing).not.toBe(reference());
    const report = await checkServer(learnerServerWire(hangsOnPing, modules), { limitMs: 400 });
    expect(statuses(report)).toMatchObject({ handshake: 'pass', 'call-echo': 'pass', ping: 'fail', 'nothing-stray': 'fail' });
    expect(report.tests.find((test) => test.id === 'ping')!.message).toBe('No answer within 0.4 s.');
    expect(report.tests.find((test) => test.id === 'nothing-stray')!.message).toMatch(/^Not run: "ping is answered/);
    // It sat out the limit once, for ping, and for nothing after it (no clock reading needed).
    expect(report.tests.filter((test) => /^No answer within/.test(test.message ?? '')).map((test) => test.id)).toEqual(['ping']);
  });
});
