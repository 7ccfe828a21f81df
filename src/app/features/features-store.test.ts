// The Server features store against the feature demo in the worker host's core: real HTTP/1.1
// bytes from the pure handler, the page's own wire and client. Each action is checked by what the
// store shows and by the connections it tagged.

import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { base64ToBytes } from '../../runtime/tap-protocol.ts';
import { parseTrace } from '../../runtime/trace/index.ts';
import { httpTraceText } from '../trace/trace-export.ts';
import { FeaturesStore, SAMPLING_REJECTED, type FeaturesState } from './features-store.ts';
import { concatBytes } from '../../protocol/inspect/concat-bytes.ts';

const stores: FeaturesStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
});

async function ready(language = 'en') {
  const wires: HttpWire[] = [];
  const store = new FeaturesStore({
    startProgram: async (spec) => {
      const wire = await startWorkerHttpWire(spec);
      wires.push(wire);
      return wire;
    },
    language: () => language,
  });
  stores.push(store);
  await store.connect();
  expect(store.getSnapshot().status).toEqual({ status: 'ready' });
  return { store, wires };
}

function until(store: FeaturesStore, check: (state: FeaturesState) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (!check(store.getSnapshot())) return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = store.subscribe(look);
    look();
  });
}

const lines = (store: FeaturesStore, tag: Parameters<FeaturesStore['exchangesOf']>[0]) => store.exchangesOf(tag).map((exchange) => `${exchange.request} ${exchange.status}`);

describe('FeaturesStore', () => {
  it('connects to the feature demo: initialize, initialized and the GET stream belong to the session', async () => {
    const { store } = await ready();
    expect(lines(store, 'session')).toEqual(['POST initialize 200', 'POST notifications/initialized 202', 'GET 200']);
    expect(store.getSnapshot().host).toBe('worker');
  });

  it('resources: list, read, subscribe; a change brings notifications/resources/updated on the GET stream', async () => {
    const { store } = await ready();
    await store.listResources();
    expect(store.getSnapshot().resources.list.map((row) => row.uri)).toEqual(['demo://counter', 'demo://about']);
    await store.readResource('demo://counter');
    expect(store.getSnapshot().resources.read).toEqual({ uri: 'demo://counter', text: 'count: 0' });
    await store.changeCounter();
    expect(store.getSnapshot().resources.updates).toEqual([]); // not subscribed yet
    await store.toggleSubscription('demo://counter');
    expect(store.getSnapshot().resources.subscribed).toEqual(['demo://counter']);
    await store.changeCounter();
    await until(store, (state) => state.resources.updates.length === 1);
    expect(store.getSnapshot().resources.updates).toEqual(['demo://counter']);
    expect(store.getSnapshot().resources.changed).toBe('count is now 2');
    expect(lines(store, 'resources')).toEqual(['POST resources/list 200', 'POST resources/read 200', 'POST tools/call 200', 'POST resources/subscribe 200', 'POST tools/call 200']);
    // The notification's bytes are in the GET stream's exchange.
    const get = store.exchangesOf('session').find((exchange) => exchange.request === 'GET')!;
    expect(new TextDecoder().decode(concatBytes(get.s2c))).toContain('"method":"notifications/resources/updated"');
  });

  it('prompts: get with arguments; a missing required one is the server’s -32602, shown in the tab', async () => {
    const { store } = await ready();
    await store.listPrompts();
    expect(store.getSnapshot().prompts.list).toEqual([expect.objectContaining({ name: 'explain', arguments: [expect.objectContaining({ name: 'topic', required: true }), expect.objectContaining({ name: 'audience' })] })]);
    await store.getPrompt('explain', { topic: 'resources', audience: '' });
    expect(store.getSnapshot().prompts.result).toEqual({ name: 'explain', messages: [{ role: 'user', text: 'Explain resources to a beginner in three sentences.' }] });
    await store.getPrompt('explain', { topic: '' });
    expect(store.getSnapshot().error).toEqual({ tab: 'prompts', text: expect.stringContaining('-32602') });
  });

  it('logging: everything by default; after setLevel(warning) only warning and error still come', async () => {
    const { store } = await ready();
    await store.runLogTool();
    await store.setLogLevel('warning');
    await store.runLogTool();
    const byRun = (run: number) => store.getSnapshot().logging.messages.filter((row) => row.run === run).map((row) => row.level);
    expect(byRun(1)).toEqual(['debug', 'info', 'notice', 'warning', 'error']);
    expect(byRun(2)).toEqual(['warning', 'error']);
    expect(store.getSnapshot().logging.level).toBe('warning');
    expect(lines(store, 'logging')).toEqual(['POST tools/call 200', 'POST logging/setLevel 200', 'POST tools/call 200']);
  });

  it('progress: the bar follows notifications/progress to the total, then the result', async () => {
    const { store } = await ready();
    const seen: number[] = [];
    const unsubscribe = store.subscribe(() => {
      const progress = store.getSnapshot().progress?.progress;
      if (progress !== undefined && seen.at(-1) !== progress) seen.push(progress);
    });
    await store.runSlowTask(3);
    unsubscribe();
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(store.getSnapshot().progress).toEqual({ progress: 3, total: 3, message: 'step 3 of 3' });
    expect(store.getSnapshot().progressResult).toBe('counted to 3');
    expect(store.exchangesOf('progress')[0]).toMatchObject({ request: 'POST tools/call', contentType: 'text/event-stream' });
  });

  it('sampling: the request waits at the gate; Approve sends the scripted answer, Deny the spec’s -1', async () => {
    const { store } = await ready('zh-CN');
    const asked = store.askModel('什么是采样？');
    await until(store, (state) => state.sampling.pending !== null);
    expect(store.getSnapshot().sampling.pending!.ask).toMatchObject({ question: '什么是采样？', maxTokens: 100 });
    // Nothing went back yet: the only sampling connection is the tools/call stream.
    expect(lines(store, 'sampling')).toEqual(['POST tools/call 200']);
    store.approveSampling();
    await asked;
    const approved = store.getSnapshot().sampling;
    expect(approved.decisions.map((row) => row.decision)).toEqual(['approved']);
    expect(approved.result).toEqual({ text: expect.stringMatching(/^scripted-model answered: （脚本模型）关于「什么是采样？」/), isError: false });

    const refused = store.askModel('again?');
    await until(store, (state) => state.sampling.pending !== null);
    store.denySampling();
    await refused;
    const denied = store.getSnapshot().sampling;
    expect(denied.decisions.map((row) => row.decision)).toEqual(['approved', 'denied']);
    expect(denied.result).toEqual({ text: expect.stringContaining(`${SAMPLING_REJECTED.code}: ${SAMPLING_REJECTED.message}`), isError: true });
    // Each answer is a POST of its own (a JSON-RPC response), taken with 202; the refusal carries -1.
    const answers = store.exchangesOf('sampling').filter((exchange) => exchange.request === 'POST');
    expect(answers.map((exchange) => exchange.status)).toEqual([202, 202]);
    expect(new TextDecoder().decode(concatBytes(answers[1]!.c2s))).toContain('"error":{"code":-1,"message":"User rejected sampling request"}');
  });

  it('saves the session as an HTTP trace whose bytes per connection are the ones each tab shows', async () => {
    const { store } = await ready();
    expect(new FeaturesStore({ startProgram: () => Promise.reject(new Error('unused')), language: () => 'en' }).recording()).toBeNull();
    await store.toggleSubscription('demo://counter');
    await store.changeCounter();
    await until(store, (state) => state.resources.updates.length === 1);
    const parsed = parseTrace(httpTraceText(store.recording()!));
    if ('error' in parsed) throw new Error(parsed.error.message);
    expect(parsed.header).toMatchObject({ mode: 'http', program: ['mcp-http', '--tools=features'] });
    for (const exchange of store.getSnapshot().exchanges) {
      const saved = parsed.events.flatMap((event) => (event.ev === 's2c' && event.conn === exchange.conn ? [...base64ToBytes(event.b64)] : []));
      expect(saved, `conn ${exchange.conn}`).toEqual([...concatBytes(exchange.s2c)]);
    }
  });

  it('refuses a request still at the gate when the panel disconnects, and starts over', async () => {
    const { store } = await ready();
    void store.askModel('left waiting');
    await until(store, (state) => state.sampling.pending !== null);
    store.disconnect();
    expect(store.getSnapshot().status).toEqual({ status: 'idle' });
    expect(store.getSnapshot().sampling.pending).toBeNull();
  });
});
