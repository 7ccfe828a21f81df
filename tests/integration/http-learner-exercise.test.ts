// Exercise 6's own files in "Drive with your code": the HTTP stepper runs the learner's
// streamable-client.ts in the learner worker's core under the project's McpClient, against
// mcp-http's real handler on the worker wire. The starter (as the learner first gets it) stops the
// first step with its TODO and line; the second correct solution and a starter filled in (its
// HttpClientTransport extending the given HttpClientPipe) run the stepper to the end.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../tools/testing/learner-worker-channel.ts';
import { startWorkerHttpWire } from '../support/http-worker-wire.ts';
import type { ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import { HTTP_STEPS, HttpSessionStore } from '../../src/app/protocol/http-session-store.ts';
import { LearnerHttpDriver } from '../../src/app/protocol/learner-http-driver.ts';

const FILE = 'streamable-client.ts';
const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const STARTER = read('exercises/06-streamable-http/starter.ts');
const SECOND = read('tests/exercise-engine/second-solutions/06-streamable-http.ts');

/** The starter with each TODO replaced by the second solution's code: the starter's shape works. */
function filledStarter(): string {
  const reader = SECOND.slice(SECOND.indexOf('export class SseReader {'), SECOND.indexOf('// 2. The client side of a session'));
  const methods = SECOND.slice(SECOND.indexOf('  private headers(extra'), SECOND.indexOf('  // ---- given helpers ----'))
    .replace('  private async send(message: JsonRpcMessage, retried = false)', '  protected async send(message: JsonRpcMessage, retried = false)')
    .replace('  private endSession(): void {\n', '  protected closing(): void {\n    for (const response of this.active) response.cancel();\n    this.active.clear();\n');
  const head = STARTER.slice(0, STARTER.indexOf('export class SseReader {')).replace("// The writing side of SSE is the server's: given.\n", 'const utf8 = new TextEncoder();\n');
  const middle = STARTER.slice(STARTER.indexOf('// 2. The client side of a session'), STARTER.indexOf('  /** `extra` plus Mcp-Session-Id'));
  const fields = "  private initializeParams: JsonRpcRequest['params'];\n  private initializeId: string | undefined;\n  private reinitializing: Promise<boolean> | undefined;\n  private listening = false;\n\n";
  return `${head}${reader}${middle}${fields}${methods}}\n`;
}

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: HttpSessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.restart();
  closeLearnerChannels();
});

function learnerStore(code: string): HttpSessionStore {
  const store = new HttpSessionStore({
    startProgram: (spec) => startWorkerHttpWire(spec),
    createLearnerDriver: () => ({ driver: new LearnerHttpDriver({ code, file: FILE, moduleId: '@protocol/http/streamable-client' }, learnerWorkerFactory(modules)), file: FILE }),
    stepTimeoutMs: 3000,
  });
  store.setClient('learner');
  stores.push(store);
  return store;
}

describe("exercise 6's files drive the HTTP stepper", () => {
  it('the starter stops the first step with its TODO and the line it is on, before any request', async () => {
    const store = learnerStore(STARTER);
    await store.step();
    const { status, exchanges } = store.getSnapshot();
    expect(status.status).toBe('failed');
    const line = STARTER.split('\n').findIndex((text) => text.includes("throw new Error('TODO: send")) + 1;
    expect(status.status === 'failed' && status.reason).toContain('TODO: send');
    expect(status.status === 'failed' && status.reason).toContain(`${FILE} line ${line}`);
    expect(exchanges).toEqual([]);
  });

  it.each([
    ['the second solution', SECOND],
    ['the starter filled in', filledStarter()],
  ])('%s runs it to the end: initialize → 200 + session id, 202, GET stream, tools/call as SSE, DELETE', async (_name, code) => {
    const store = learnerStore(code);
    await store.runToEnd();
    const state = store.getSnapshot();
    expect(state.status).toEqual({ status: 'done' });
    expect(state.cursor).toBe(HTTP_STEPS.length);
    const byRequest = Object.fromEntries(state.exchanges.map((exchange) => [exchange.request, exchange]));
    expect(byRequest['POST initialize']).toMatchObject({ status: 200 });
    expect(byRequest['POST notifications/initialized']).toMatchObject({ status: 202 });
    expect(byRequest.GET).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(byRequest['POST tools/call']).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(byRequest.DELETE).toMatchObject({ status: 200 });
    expect(state.progress.length).toBeGreaterThan(0);
    expect(state.holds.protocolVersion).toBe('2025-11-25');
  });
});
