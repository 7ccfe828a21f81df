// Exercise 7's learner file plugs into the app's own dual-era client: DualEraClient's `sessionClass`
// takes the learner's ModernSession (here the second correct solution of exercise 7, a learner's
// file in another style than the reference), and the client then runs against real servers — the
// project's dual-era echo server (the probe finds 2026-07-28, an echo, an MRTR round) and SDK
// 1.32.2's legacy server (the learner's classifyProbe says legacy, and the handshake runs on the same
// pipe). With the starter's ModernSession, connect() fails with the starter's own TODO: the learner's
// code is what runs. This is the seam a "Drive with your code" for the era stepper will use.

import { afterEach, describe, expect, it } from 'vitest';
import { DualEraClient, type DualEraClientOptions, type ModernSessionClass } from '../../src/protocol/era/dual-era-client.ts';
import * as learner from '../exercise-engine/second-solutions/07-stateless-era.ts';
import * as starter from '../../exercises/07-stateless-era/starter.ts';
import { builtProgram, ChildTransport, killAllPrograms, RunningProgram } from './child-transport.ts';

const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await killAllPrograms();
});

function clientOn(program: 'echo-server' | 'sdk-echo-server', Session: ModernSessionClass, options: DualEraClientOptions = {}) {
  // The echo server speaks Content-Length unless told otherwise; SDK 1.x speaks NDJSON only.
  const args = program === 'echo-server' ? [builtProgram(program), '--framing=ndjson'] : [builtProgram(program)];
  const client = new DualEraClient(
    { kind: 'stdio', transport: new ChildTransport(new RunningProgram(process.execPath, args).child), framing: 'ndjson' },
    { sessionClass: Session, inputHandlers: { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }) }, ...options },
  );
  cleanups.push(() => client.close());
  return client;
}

describe("a learner's ModernSession inside the app's dual-era client", () => {
  it("the dual-era echo server: the learner's probe finds 2026-07-28, then an echo and an MRTR round", async () => {
    const client = clientOn('echo-server', learner.ModernSession);
    expect(await client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'mcp-echo-server' } });
    expect(await client.callTool('echo', { text: 'from the learner' })).toMatchObject({ content: [{ type: 'text', text: 'from the learner' }] });
    expect(await client.callTool('greet', {})).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it("SDK 1.32.2's legacy server: the learner's verdict is legacy and the handshake runs on the same pipe", async () => {
    const client = clientOn('sdk-echo-server', learner.ModernSession, { probeTimeoutMs: 5_000 });
    expect(await client.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'sdk-echo-server' } });
    expect(await client.callTool('echo', { text: 'legacy' })).toMatchObject({ content: [{ type: 'text', text: 'legacy' }] });
  });

  it("the starter's ModernSession is what runs: connect() fails with its TODO", async () => {
    const client = clientOn('echo-server', starter.ModernSession as unknown as ModernSessionClass);
    await expect(client.connect()).rejects.toThrow(/TODO: discover/);
  });
});
