// "Your code" in the HTTP stepper: the learner's exercise-6 module (HttpClientTransport with their
// SseReader) runs in the learner worker's core under the project's McpClient and drives the HTTP
// stepper against mcp-http's real handler on the worker wire. Its requests come back to the page
// and cross the wire's relayed connection, so the recorded exchanges are the bytes the server read.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import { base64ToBytes } from '../../runtime/tap-protocol.ts';
import { HTTP_STEPS, HttpSessionStore } from './http-session-store.ts';
import { LearnerHttpDriver } from './learner-http-driver.ts';

const FILE = 'streamable-client.ts';
const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const source = (code: string): LearnerSource => ({ code, file: FILE, moduleId: '@protocol/http/streamable-client' });
const REFERENCE = read('src/protocol/http/streamable-client.ts');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: HttpSessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.restart();
  closeLearnerChannels();
});

function learnerStore(code: string, taps: TapEvent[] = []) {
  const store = new HttpSessionStore({
    startProgram: async (spec) => {
      const wire = await startWorkerHttpWire(spec);
      wire.onTapEvent((event) => taps.push(event));
      return wire;
    },
    createLearnerDriver: () => ({ driver: new LearnerHttpDriver(source(code), learnerWorkerFactory(modules)), file: FILE }),
    stepTimeoutMs: 3000,
  });
  store.setClient('learner');
  stores.push(store);
  return store;
}

describe("the learner's exercise 6 module drives the HTTP stepper from the learner worker", () => {
  it('the reference file, pasted in: initialize → 200 + session id, 202, GET stream, tools/call as SSE with progress, DELETE', async () => {
    const taps: TapEvent[] = [];
    const store = learnerStore(REFERENCE, taps);
    await store.runToEnd();
    const state = store.getSnapshot();
    expect(state.status).toEqual({ status: 'done' });
    expect(state.client).toBe('learner');
    expect(state.cursor).toBe(HTTP_STEPS.length);
    const byRequest = Object.fromEntries(state.exchanges.map((exchange) => [exchange.request, exchange]));
    expect(byRequest['POST initialize']).toMatchObject({ status: 200, step: 'initialize' });
    expect(byRequest['POST initialize']!.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(byRequest['POST notifications/initialized']).toMatchObject({ status: 202, step: 'initialized' });
    expect(byRequest.GET).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(byRequest['POST tools/call']).toMatchObject({ status: 200, contentType: 'text/event-stream', step: 'call', closed: true });
    expect(byRequest.DELETE).toMatchObject({ status: 200, step: 'delete' });
    expect(state.progress.length).toBeGreaterThan(0);
    expect(state.holds.protocolVersion).toBe('2025-11-25');
    // The session id the learner's transport sent on later requests is the one the server set.
    const later = new TextDecoder().decode(byRequest['POST tools/call']!.c2s[0]);
    expect(later).toContain(`Mcp-Session-Id: ${byRequest['POST initialize']!.sessionId}\r\n`);
    // Each exchange's bytes are exactly the relayed connection's c2s/s2c tap events.
    for (const exchange of state.exchanges) {
      const sent = taps.filter((event) => event.ev === 'c2s' && event.conn === exchange.conn).map((event) => base64ToBytes((event as { b64: string }).b64));
      expect(exchange.c2s).toEqual(sent);
    }
  });

  it("a module whose transport throws TODO (the starter's shape) stops the first step with its message and line, no wait", async () => {
    const starter = `export class SseReader { push(_chunk: Uint8Array): never { throw new Error('TODO: read SSE events'); } }
export function encodeSseEvent(): never { throw new Error('TODO'); }
export function encodeSseText(): never { throw new Error('TODO'); }
export const HTTP_CLIENT_FRAMING = 'ndjson';
export class HttpClientTransport {
  constructor(readonly options: unknown) {}
  write(_bytes: Uint8Array): void {
    throw new Error('TODO: POST each message with the right headers');
  }
  end(): void {}
  onData() { return () => {}; }
  onClose() { return () => {}; }
}
`;
    const store = learnerStore(starter);
    await store.step();
    const { status, exchanges } = store.getSnapshot();
    expect(status.status).toBe('failed');
    expect(status.status === 'failed' && status.reason).toContain('TODO: POST each message with the right headers');
    expect(status.status === 'failed' && status.reason).toMatch(/streamable-client\.ts line 8\b/);
    expect(exchanges).toEqual([]);
  });

  it('a module without HttpClientTransport is reported by name', async () => {
    const store = learnerStore(`export class SseReader {}\nexport const HTTP_CLIENT_FRAMING = 'ndjson';\n`);
    await store.step();
    const { status } = store.getSnapshot();
    expect(status.status === 'failed' && status.reason).toMatch(/HttpClientTransport/);
  });

  it('a client that never opens the GET stream stops the step at its limit, with a code the page words in its language', async () => {
    const silent = `export { SseReader, encodeSseEvent, encodeSseText } from '../framing/sse.ts';
export { HTTP_CLIENT_FRAMING } from './client-transport.ts';
import { HttpClientTransport as Base, type HttpClientTransportOptions } from './client-transport.ts';
export class HttpClientTransport extends Base {
  constructor(options: HttpClientTransportOptions) {
    super({ ...options, listen: false });
  }
}
`;
    const store = learnerStore(silent);
    await store.step();
    await store.step();
    await store.step();
    expect(store.getSnapshot().status).toEqual({
      status: 'failed',
      reason: 'nothing on the wire within 3 s: expected the GET stream the client opens after initialized',
      why: { code: 'wire-timeout', seconds: 3, step: 'listen' },
    });
  });

  it("an error the learner's code throws later, in a timer, fails the step that waits for it (no wait for a timeout)", async () => {
    const later = `export { SseReader, encodeSseEvent, encodeSseText } from '../framing/sse.ts';
export { HTTP_CLIENT_FRAMING } from './client-transport.ts';
import { HttpClientTransport as Base } from './client-transport.ts';
export class HttpClientTransport extends Base {
  write(_bytes: Uint8Array): void {
    setTimeout(() => { throw new Error('TODO: send it from a timer'); }, 0);
  }
}
`;
    const store = learnerStore(later);
    await store.step();
    const { status } = store.getSnapshot();
    expect(status.status).toBe('failed');
    expect(status.status === 'failed' && status.reason).toContain('TODO: send it from a timer');
  });
});
