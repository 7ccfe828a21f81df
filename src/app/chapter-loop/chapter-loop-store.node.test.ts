// The Chapter loop against the real echo server session in this process (real tap events, real
// McpClient), with the reference registerMcpTools and with learner code in the worker core.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';
import type { TranscriptEntry } from './agent-loop.ts';
import { createReferenceAgentRegistry, localToolRows } from './agent-registry.ts';
import { defaultScript, validateScript, type AgentScript } from './agent-script.ts';
import { ChapterLoopStore, type ChapterLoopTexts } from './chapter-loop-store.ts';
import { framesOfCall } from './call-frames.ts';
import { createLearnerAgentRegistry } from './learner-agent-registry.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: ChapterLoopStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  closeLearnerChannels();
});

const texts: ChapterLoopTexts = { refusal: (request) => `The user denied ${request.name}.`, notRegistered: (call) => `No ${call.tool} from ${call.server}.` };

function agent(learner?: LearnerSource): ChapterLoopStore {
  const store = new ChapterLoopStore({
    server: inProcessServerPort(),
    createRegistry: (kind: DriverKind) => (kind === 'learner' ? createLearnerAgentRegistry(learner!, learnerWorkerFactory(modules)) : createReferenceAgentRegistry()),
    localRows: localToolRows,
  });
  if (learner) store.setCode('learner');
  stores.push(store);
  return store;
}

/** Answer approval requests with `answers`, in order, as they come. */
function answering(store: ChapterLoopStore, answers: boolean[]): void {
  store.subscribe(() => {
    if (store.getSnapshot().phase === 'approval') (answers.shift() ? store.approve() : store.deny());
  });
}

const names = (store: ChapterLoopStore) => store.getSnapshot().tools.map((row) => (row.origin.kind === 'mcp' ? `${row.name}<${row.origin.remoteName}>:${row.tier}` : row.name));
const observations = (transcript: readonly TranscriptEntry[]) => transcript.flatMap((entry) => (entry.type === 'observation' ? [`${entry.kind}:${entry.text}`] : []));

describe('the Chapter loop with the reference registerMcpTools', () => {
  it('without a prefix, the remote add clashes with the local one and nothing is merged', async () => {
    const store = agent();
    store.setUsePrefix(false);
    await store.connectAndMerge();
    const { phase, merge } = store.getSnapshot();
    expect(phase).toBe('ready');
    expect(merge).toMatchObject({ ok: false, prefix: '', error: { name: 'DuplicateToolError' }, problems: [] });
    expect(merge!.error!.message).toContain('"add"');
    expect(names(store)).toEqual(['get_time', 'get_weather', 'add', 'write_note', 'delete_file']);
    expect(merge!.listed).toEqual(['echo', 'add', 'delay_echo', 'fail', 'delete_file']);
  });

  it('with the prefix both adds live side by side, with tiers from the annotations', async () => {
    const store = agent();
    await store.connectAndMerge();
    expect(store.getSnapshot().merge).toMatchObject({ ok: true, count: 5, prefix: 'mcp__echo__', problems: [] });
    expect(names(store)).toEqual([
      'get_time', 'get_weather', 'add', 'write_note', 'delete_file',
      'mcp__echo__echo<echo>:auto', 'mcp__echo__add<add>:auto', 'mcp__echo__delay_echo<delay_echo>:auto', 'mcp__echo__fail<fail>:auto', 'mcp__echo__delete_file<delete_file>:approve',
    ]);
    // The connection's frames were recorded: the handshake and tools/list.
    expect(store.getSnapshot().arrows.map((arrow) => arrow.method)).toEqual(['initialize', 'initialize', 'notifications/initialized', 'tools/list', 'tools/list']);
  });

  it('runs the default turn: approve runs delete_file, and each call links to its own frames by id', async () => {
    const store = agent();
    await store.connectAndMerge();
    answering(store, [true]);
    await store.runTurn(defaultScript('en'), texts);
    const { transcript, windows, arrows, phase } = store.getSnapshot();
    expect(phase).toBe('ready');
    expect(observations(transcript)).toEqual(['ok:hello from MCP', 'ok:5', 'ok:would delete /tmp/scratch.txt']);
    expect(transcript.at(-1)).toEqual({ type: 'final', text: 'The echo server said "hello from MCP", 2 + 3 = 5, and the file: would delete /tmp/scratch.txt' });
    expect(windows.map((window) => window.name)).toEqual(['mcp__echo__echo', 'mcp__echo__add', 'mcp__echo__delete_file']);
    const frames = windows.map((window) => framesOfCall(window, arrows));
    expect(frames.map((f) => f.requests.map((arrow) => `${arrow.id}:${(arrow.value as { params: { name: string } }).params.name}`))).toEqual([['2:echo'], ['3:add'], ['4:delete_file']]);
    expect(frames.map((f) => f.responses.map((arrow) => `${arrow.kind}:${arrow.id}`))).toEqual([['response:2'], ['response:3'], ['response:4']]);
    // The inspector opens on the exact frame.
    const target = store.inspectTarget(frames[2]!.requests[0]!.seq)!;
    expect(new TextDecoder().decode(target.bytes)).toContain('"name":"delete_file"');
  });

  it('in the 2026-07-28 era: server/discover instead of initialize, the envelope on every request, the same turn', async () => {
    const store = agent();
    store.setEra('modern');
    await store.connectAndMerge();
    // The modern half lists one tool more: greet, which asks the client through an MRTR round.
    expect(store.getSnapshot().merge).toMatchObject({ ok: true, count: 6, prefix: 'mcp__echo__', problems: [], listed: ['echo', 'add', 'delay_echo', 'fail', 'delete_file', 'greet'] });
    answering(store, [true]);
    await store.runTurn(defaultScript('en'), texts);
    const { transcript, arrows, phase } = store.getSnapshot();
    expect(phase).toBe('ready');
    expect(observations(transcript)).toEqual(['ok:hello from MCP', 'ok:5', 'ok:would delete /tmp/scratch.txt']);
    const requests = arrows.filter((arrow) => arrow.kind === 'request');
    expect(requests.map((arrow) => arrow.method)).toEqual(['server/discover', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    for (const request of requests) expect(request.value).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    expect(arrows.some((arrow) => arrow.method === 'initialize')).toBe(false);
  });

  it('deny: the refusal is the observation and no tools/call for delete_file crosses the wire', async () => {
    const store = agent();
    await store.connectAndMerge();
    answering(store, [false]);
    await store.runTurn(defaultScript('en'), texts);
    const { transcript, arrows } = store.getSnapshot();
    expect(observations(transcript)).toEqual(['ok:hello from MCP', 'ok:5', 'denied:The user denied mcp__echo__delete_file.']);
    const called = arrows.filter((arrow) => arrow.method === 'tools/call' && arrow.kind === 'request').map((arrow) => (arrow.value as { params: { name: string } }).params.name);
    expect(called).toEqual(['echo', 'add']);
  });

  it('a failing tool is readable text; under error-as-rpc-error the model only gets an exception', async () => {
    const failing = validateScript({ user: 'u', turns: [{ calls: [{ tool: 'fail', server: 'echo', args: { message: 'disk on fire' } }] }], final: '{{1}}' });
    if (!failing.ok) throw new Error('bad script');
    const script: AgentScript = failing.script;
    const store = agent();
    await store.connectAndMerge();
    await store.runTurn(script, texts);
    expect(observations(store.getSnapshot().transcript)).toEqual(['tool-error:[tool error] disk on fire']);

    store.setRpcErrorFault(true);
    await store.connectAndMerge();
    await store.runTurn(script, texts);
    const [observation] = observations(store.getSnapshot().transcript);
    expect(observation).toMatch(/^exception:Tool "mcp__echo__fail" failed: /);
    // An exception string from the client, not the tool's isError result.
    expect(observation).toContain('JSON-RPC error -32603');
    expect(observation).not.toContain('[tool error]');
    const { windows, arrows } = store.getSnapshot();
    expect(framesOfCall(windows[0]!, arrows).responses.map((arrow) => arrow.kind)).toEqual(['error-response']);
  });
});

describe("the Chapter loop with the learner's registerMcpTools in the worker", () => {
  const reference = (): LearnerSource => ({ code: read('src/protocol/remote-tools.ts'), file: 'register-mcp-tools.ts', moduleId: '@protocol/remote-tools' });

  it('merges through the page client and runs the turn in the worker registry', async () => {
    const store = agent(reference());
    store.setUsePrefix(false);
    await store.connectAndMerge();
    expect(store.getSnapshot().merge).toMatchObject({ code: 'learner', ok: false, error: { name: 'DuplicateToolError' } });

    store.setUsePrefix(true);
    await store.connectAndMerge();
    expect(store.getSnapshot().merge).toMatchObject({ code: 'learner', ok: true, count: 5, problems: [] });
    expect(names(store)).toContain('mcp__echo__delete_file<delete_file>:approve');
    answering(store, [true]);
    await store.runTurn(defaultScript('en'), texts);
    expect(observations(store.getSnapshot().transcript)).toEqual(['ok:hello from MCP', 'ok:5', 'ok:would delete /tmp/scratch.txt']);
    // The learner's executor's callTool went through the page's client: real frames.
    const { windows, arrows } = store.getSnapshot();
    expect(windows.map((window) => framesOfCall(window, arrows).responses.length)).toEqual([1, 1, 1]);
  });

  it("hands a JSON-RPC error back to the learner's executor as an exception with its code", async () => {
    const store = agent(reference());
    store.setRpcErrorFault(true);
    await store.connectAndMerge();
    const failing = validateScript({ user: 'u', turns: [{ calls: [{ tool: 'fail', server: 'echo', args: { message: 'disk on fire' } }, { tool: 'echo', server: 'echo', args: { text: 'still here' } }] }], final: '{{2}}' });
    if (!failing.ok) throw new Error('bad script');
    await store.runTurn(failing.script, texts);
    const [first, second] = observations(store.getSnapshot().transcript);
    expect(first).toMatch(/^exception:Tool "mcp__echo__fail" failed: .*JSON-RPC error -32603/);
    // The turn goes on after the failed call.
    expect(second).toBe('ok:still here');
  });

  it('names the bug when the learner skips the clashing tool silently', async () => {
    const file = 'src/protocol/register-mcp-tools.ts';
    let code = read(file);
    code = code.replace('    if (registry.has(name) || plannedNames.has(name)) throw clashError(name, tool.name, options.server);', '    if (plannedNames.has(name)) throw clashError(name, tool.name, options.server);');
    code = code.replace(
      '    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));',
      '    try { registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args))); } catch (error) { if (error instanceof DuplicateToolError) continue; throw error; }',
    );
    const store = agent({ code, file: 'register-mcp-tools.ts', moduleId: '@protocol/register-mcp-tools' });
    store.setUsePrefix(false);
    await store.connectAndMerge();
    expect(store.getSnapshot().merge).toMatchObject({ ok: true, problems: [{ kind: 'skipped', remoteName: 'add' }, { kind: 'skipped', remoteName: 'delete_file' }] });
  });

  it("shows the learner's own error when their code throws", async () => {
    const store = agent({ code: read('exercises/05-register-mcp-tools/starter.ts'), file: 'register-mcp-tools.ts', moduleId: '@protocol/remote-tools' });
    await store.connectAndMerge();
    const { merge } = store.getSnapshot();
    expect(merge?.ok).toBe(false);
    expect(merge?.error?.message).toMatch(/TODO/);
  });
});
