// Check my client, HTTP mode: the learner's exercise-6 module in the learner worker's core, its
// requests sent by the page's HTTP/1.1 client, against the official SDK 1.32.2's Streamable HTTP
// server — the built sdk-http-server.mjs as a real Node process behind the relay tap (real TCP, as
// on the bridge), and the same SDK handler served over HTTP/1.1 bytes as the worker host does.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import { protocolModules, sdkHttpWire, stopAllWires } from '../../../tools/testing/node-wires.ts';
import { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import { checkHttpClient, HTTP_CLIENT_CHECKS } from './check-client-http.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const REFERENCE = read('src/protocol/http/streamable-client.ts');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(() => {
  stopAllWires();
  closeLearnerChannels();
});

const driverFor = (code: string) => new LearnerHttpDriver({ code, file: 'streamable-client.ts', moduleId: '@protocol/http/streamable-client' }, learnerWorkerFactory(modules));

describe("Check my client, HTTP mode: the learner's exercise 6 module against the SDK's Streamable HTTP server", () => {
  for (const kind of ['bridge', 'worker'] as const) {
    it(`passes every check with the reference module (${kind} host)`, async () => {
      const wire = sdkHttpWire(kind);
      const bytes: string[] = [];
      wire.onTapEvent((event) => {
        if (event.ev === 'c2s') bytes.push(Buffer.from(event.b64, 'base64').toString('latin1'));
      });
      const report = await checkHttpClient(wire, driverFor(REFERENCE));
      expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(HTTP_CLIENT_CHECKS.map((check) => [check.id, 'pass', undefined]));
      expect(report.status).toBe('pass');
      // What the SDK server read: the learner's requests, by the page's HTTP/1.1 client.
      expect(bytes.join('')).toContain('DELETE /mcp HTTP/1.1\r\n');
    });
  }

  it("fails the first check with the exercise 6 starter's TODO and its line, and the rest at once", async () => {
    const report = await checkHttpClient(sdkHttpWire('worker'), driverFor(read('exercises/06-streamable-http/starter.ts')), { limitMs: 2000 });
    expect(report.status).toBe('fail');
    expect(report.tests[0]).toMatchObject({ id: 'http-initialize', status: 'fail' });
    expect(report.tests[0]!.message).toMatch(/^initialize\(\) threw Error: TODO: send .*\(streamable-client\.ts line \d+\)$/);
    expect(report.tests.slice(1).map((test) => test.status)).toEqual(['fail', 'fail', 'fail', 'fail']);
  });

  it('passes every check with the second solution (a learner-shaped file, not the reference)', async () => {
    const report = await checkHttpClient(sdkHttpWire('bridge'), driverFor(read('tests/exercise-engine/second-solutions/06-streamable-http.ts')));
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(HTTP_CLIENT_CHECKS.map((check) => [check.id, 'pass', undefined]));
  });

  it('is an error report naming the missing export when the module has no HttpClientTransport', async () => {
    const report = await checkHttpClient(sdkHttpWire('worker'), driverFor("export const HTTP_CLIENT_FRAMING = 'ndjson';\n"));
    expect(report).toMatchObject({ status: 'error', tests: [] });
    expect(report.message).toMatch(/^Your exercise 6 module did not start: .*HttpClientTransport/);
  });

  it('a transport that drops the session id fails the initialized check with the headers the server read', async () => {
    // The reference, but every request after initialize loses its Mcp-Session-Id. The product's own
    // limit: initialize must pass, and a short one is what a loaded machine misses.
    const forgetful = `export { SseReader, encodeSseEvent, encodeSseText } from '../framing/sse.ts';
export { HTTP_CLIENT_FRAMING } from './client-transport.ts';
import { HttpClientTransport as Base } from './client-transport.ts';
export class HttpClientTransport extends Base {
  constructor(options: any) {
    super({ ...options, exchange: (request: any) => {
      const headers = { ...request.headers };
      delete headers['mcp-session-id'];
      return options.exchange({ ...request, headers });
    } });
  }
}
`;
    const report = await checkHttpClient(sdkHttpWire('worker'), driverFor(forgetful));
    expect(report.tests[0]).toMatchObject({ id: 'http-initialize', status: 'pass' });
    expect(report.tests[1]).toMatchObject({ id: 'http-initialized', status: 'fail' });
    expect(report.tests[1]!.message).toMatch(/202|Mcp-Session-Id/);
  });
});
