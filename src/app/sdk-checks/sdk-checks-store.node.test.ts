import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import type { Host } from '../../runtime/host.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import type { HostSelectionState } from '../live-session/live-session-store.ts';
import { SdkChecksStore, type SdkChecksDeps, type SuiteState } from './sdk-checks-store.ts';
import { nodeHost } from '../../../tools/testing/node-host.ts';
import { protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(() => {
  stopAllWires();
  closeLearnerChannels();
});

function storeWith(host: Host | null, overrides: Partial<SdkChecksDeps> = {}) {
  const selection: HostSelectionState = host ? { status: 'chosen', kind: host.kind, availability: [{ kind: host.kind, status: 'available' }] } : { status: 'none', availability: [] };
  return new SdkChecksStore({
    hostSelection: () => selection,
    host: () => host,
    bridgeLearnerCode: () => 'sandboxed',
    workerHost: () => {
      throw new Error('no worker host in this test');
    },
    clientSource: () => ({ code: read('src/protocol/client.ts'), file: 'client.ts', moduleId: '@protocol/client' }),
    serverSource: () => ({ code: read('src/protocol/server.ts'), file: 'server.ts', moduleId: '@protocol/server' }),
    createClientDriver: (source) => new LearnerDriver(source, learnerWorkerFactory(modules)),
    ...overrides,
  });
}

const done = (state: SuiteState) => {
  if (state.status !== 'done') throw new Error(`not done: ${state.status}`);
  return state;
};

describe('SdkChecksStore', () => {
  it("HTTP mode: exercise 6's module against the SDK's Streamable HTTP server (sdk-http-server), whatever the stdio server choice", async () => {
    const host = nodeHost(modules);
    const store = storeWith(host, {
      clientSource: (code) =>
        code === 'exercise-6'
          ? { code: read('src/protocol/http/streamable-client.ts'), file: 'streamable-client.ts', moduleId: '@protocol/http/streamable-client' }
          : { code: read('src/protocol/client.ts'), file: 'client.ts', moduleId: '@protocol/client' },
      createHttpClientDriver: (source) => new LearnerHttpDriver(source, learnerWorkerFactory(modules)),
    });
    store.setClientServer('sdk2-modern');
    store.setClientCode('exercise-6');
    const starting: unknown[] = [];
    store.subscribe(() => {
      const state = store.getSnapshot().client;
      if (state.status === 'running' && state.phase === 'starting') starting.push(state.program);
    });
    await store.run('client');
    // The panel names the program being started.
    expect(starting).toEqual(['sdk-http-server']);
    const report = done(store.getSnapshot().client).report;
    expect(report.tests.map((test) => `${test.id}:${test.status}`)).toEqual(['http-initialize:pass', 'http-initialized:pass', 'http-list-tools:pass', 'http-call-echo:pass', 'http-delete:pass']);
    expect(host.started.map((spec) => `${spec.program}${spec.era ? ` ${spec.era}` : ''}`)).toEqual(['sdk-http-server']);
  });

  it('checks the client against SDK 2.4.0 when chosen: both eras pass, modern mode refuses the handshake with -32022', async () => {
    const host = nodeHost(modules);
    const store = storeWith(host);
    store.setClientServer('sdk2');
    await store.run('client');
    expect(done(store.getSnapshot().client).report.status).toBe('pass');
    store.setClientServer('sdk2-modern');
    await store.run('client');
    const modern = done(store.getSnapshot().client).report;
    expect(modern.tests[0]).toMatchObject({ id: 'handshake', status: 'fail' });
    expect(modern.tests[0]!.message).toContain('-32022');
    expect(host.started.map((spec) => `${spec.program}${spec.era ? ` ${spec.era}` : ''}`)).toEqual(['sdk2-echo-server', 'sdk2-echo-server modern']);
  });

  it("on exercise 7 it checks that exercise's ModernSession inside the dual-era client, starting with the 2026-07-28-only server", async () => {
    const host = nodeHost(modules);
    const asked: string[] = [];
    const store = storeWith(host, {
      defaultClientCode: () => 'exercise-7',
      clientSource: (code) => {
        asked.push(code);
        return code === 'exercise-7'
          ? { code: read('src/protocol/era/stateless-client.ts'), file: 'stateless-client.ts', moduleId: '@protocol/era/stateless-client' }
          : { code: read('src/protocol/client.ts'), file: 'client.ts', moduleId: '@protocol/client' };
      },
      createClientDriver: (source, era) => new LearnerDriver(source, learnerWorkerFactory(modules), {}, era),
    });
    expect(store.getSnapshot()).toMatchObject({ clientCode: 'exercise-7', clientServer: 'sdk2-modern' });
    await store.run('client');
    const modern = done(store.getSnapshot().client).report;
    expect(modern.tests.map((test) => `${test.id}:${test.status}`)).toEqual(['era-discover:pass', 'list-tools:pass', 'call-echo:pass', 'era-unknown-tool:pass', 'era-envelope:pass', 'close:pass']);
    store.setClientServer('sdk1');
    await store.run('client');
    expect(done(store.getSnapshot().client).report.status).toBe('pass');
    store.setClientCode('exercise-3');
    await store.run('client');
    expect(done(store.getSnapshot().client).report.tests[0]!.id).toBe('handshake');
    expect(asked).toEqual(['exercise-7', 'exercise-7', 'exercise-3']);
    expect(host.started.map((spec) => `${spec.program}${spec.era ? ` ${spec.era}` : ''}`)).toEqual(['sdk2-echo-server modern', 'sdk-echo-server', 'sdk-echo-server']);
  });

  it('checks the server with SDK 2.4.0 when chosen: the probe, the fallback, then the same calls', async () => {
    const store = storeWith(nodeHost(modules));
    store.setServerClient('sdk2');
    await store.run('server');
    const server = done(store.getSnapshot().server);
    expect(server.report.tests.map((test) => `${test.id}:${test.status}`)).toEqual(['probe-fallback:pass', 'list-tools:pass', 'call-echo:pass']);
    store.setServerClient('sdk1');
    await store.run('server');
    expect(done(store.getSnapshot().server).report.tests[0]!.id).toBe('handshake');
  });

  it('runs Check my client on sdk-echo-server and Check my server on learner-server, with the code read at the press', async () => {
    const host = nodeHost(modules);
    const store = storeWith(host);
    const phases: string[] = [];
    store.subscribe(() => {
      const state = store.getSnapshot().client;
      if (state.status === 'running') phases.push(`${state.phase}:${state.results.length}`);
    });
    await store.run('client');
    expect(done(store.getSnapshot().client).report.status).toBe('pass');
    expect(phases.slice(0, 3)).toEqual(['loading:0', 'starting:0', 'checking:0']);
    expect(phases.at(-1)).toBe('checking:7');
    await store.run('server');
    const server = done(store.getSnapshot().server);
    expect(server.report.status).toBe('pass');
    expect(server.host).toBe('bridge');
    expect(host.started.map((spec) => [spec.program, spec.framing, spec.learnerServer?.file])).toEqual([
      ['sdk-echo-server', 'ndjson', undefined],
      ['learner-server', 'ndjson', 'server.ts'],
    ]);
  });

  it.each(['shared-bridge', 'not-enabled', 'no-sandbox'] as const)(
    'runs Check my server in the worker when the bridge does not run learner code (%s), and says why',
    async (why) => {
      const bridge = nodeHost(modules, 'bridge');
      const worker = nodeHost(modules, 'worker');
      const store = storeWith(bridge, { bridgeLearnerCode: () => why, workerHost: () => worker });
      expect(store.blocker('server')).toBeNull();
      expect(store.fallback('server')).toBe(why);
      expect(store.fallback('client')).toBeNull();
      await store.run('server');
      const state = done(store.getSnapshot().server);
      expect(state).toMatchObject({ host: 'worker', fallback: why, problem: null });
      expect(state.report.status).toBe('pass');
      expect(bridge.started).toEqual([]);
      expect(worker.started.map((spec) => spec.program)).toEqual(['learner-server']);
      // Check my client still runs on the bridge.
      await store.run('client');
      expect(done(store.getSnapshot().client)).toMatchObject({ host: 'bridge' });
    },
  );

  it('asks before code from a share link runs on the bridge, and does not run it when the learner says no', async () => {
    const bridge = nodeHost(modules, 'bridge');
    const asked: string[] = [];
    let answer = false;
    const store = storeWith(bridge, {
      serverCodeIsShared: () => true,
      confirmSharedCode: async (host) => {
        asked.push(host);
        return answer;
      },
    });
    await store.run('server');
    expect(done(store.getSnapshot().server)).toMatchObject({ problem: { kind: 'declined', host: 'bridge' }, report: { status: 'error' } });
    expect(bridge.started).toEqual([]);
    answer = true;
    await store.run('server');
    expect(done(store.getSnapshot().server).report.status).toBe('pass');
    expect(asked).toEqual(['bridge', 'bridge']);
    expect(bridge.started.map((spec) => spec.program)).toEqual(['learner-server']);
  });

  it('asks the same for code from an imported progress file, and remembers a yes', async () => {
    const bridge = nodeHost(modules, 'bridge');
    const asked: string[] = [];
    const accepted: string[] = [];
    let source: 'own' | 'imported-file' = 'imported-file';
    let answer = false;
    const store = storeWith(bridge, {
      serverCodeSource: () => source,
      confirmSharedCode: async (host, from) => {
        asked.push(`${host} ${from}`);
        return answer;
      },
      sharedCodeAccepted: (from) => {
        accepted.push(from);
        source = 'own'; // what the page's exercise store does: the code is the learner's now
      },
    });
    await store.run('server');
    expect(done(store.getSnapshot().server)).toMatchObject({ problem: { kind: 'declined', host: 'bridge' } });
    expect(bridge.started).toEqual([]);
    answer = true;
    await store.run('server');
    expect(done(store.getSnapshot().server).report.status).toBe('pass');
    await store.run('server');
    expect(asked).toEqual(['bridge imported-file', 'bridge imported-file']);
    expect(accepted).toEqual(['imported-file']);
    expect(bridge.started.map((spec) => spec.program)).toEqual(['learner-server', 'learner-server']);
  });

  it('never asks when shared code runs in the worker', async () => {
    const worker = nodeHost(modules, 'worker');
    const store = storeWith(worker, { serverCodeIsShared: () => true, confirmSharedCode: async () => expect.fail('asked') });
    await store.run('server');
    expect(done(store.getSnapshot().server).report.status).toBe('pass');
  });

  it("reports a host's refusal to start the program as an error with the host's words", async () => {
    const refusing: Host = {
      kind: 'worker',
      start: async (spec) => {
        throw new Error(`cannot spawn ${spec.program}: not in this build`);
      },
    };
    const store = storeWith(refusing);
    await store.run('client');
    const state = done(store.getSnapshot().client);
    expect(state.report).toMatchObject({ status: 'error', tests: [] });
    expect(state.problem).toEqual({ kind: 'start-failed', host: 'worker', detail: 'cannot spawn sdk-echo-server: not in this build' });
  });

  it('without a host, both checks are blocked', async () => {
    const store = storeWith(null);
    expect(store.blocker('client')).toEqual({ kind: 'no-host' });
    await store.run('client');
    expect(done(store.getSnapshot().client).problem).toEqual({ kind: 'no-host' });
  });

  it('runs one check at a time: a second press while busy does nothing', async () => {
    const host = nodeHost(modules);
    const store = storeWith(host);
    const first = store.run('server');
    await store.run('client');
    await first;
    expect(host.started.map((spec) => spec.program)).toEqual(['learner-server']);
    expect(store.getSnapshot().client.status).toBe('idle');
  });
});
