// Load: 100 pages at once, each running a real echo server through the bridge and the project's
// own McpClient over the tap protocol. Every answer is checked, then every process must be gone.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { McpClient } from '../../src/protocol/client.ts';
import type { JsonRpcId } from '../../src/protocol/jsonrpc.ts';
import { buildProgramsForTest, isAlive, startTestBridge, waitUntil, WsTapTransport, type TestBridge } from './ws-tap-transport.ts';

const CONNECTIONS = 100;
const CALLS_PER_CONNECTION = 100;
const TEXTS = ['你好，世界', 'こんにちは', '안녕하세요', 'plain ascii', 'emoji 🌏 and 𠜎', 'quotes " and \\ and \n newline'];

let programs: { dir: string; remove(): Promise<void> };
let testBridge: TestBridge;

beforeAll(async () => {
  programs = await buildProgramsForTest();
  testBridge = await startTestBridge({ programsDir: programs.dir, maxTotal: CONNECTIONS });
});

afterAll(async () => {
  await testBridge?.close();
  await programs?.remove();
});

/** One page: start, handshake, list tools, then 100 echo calls in flight at once; returns its pids. */
async function runOnePage(page: number): Promise<{ transport: WsTapTransport; client: McpClient; serverPid: number }> {
  const transport = await WsTapTransport.start(testBridge.url, testBridge.origin, { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] }, 30_000);
  const client = new McpClient(transport, { framing: 'ndjson' });

  // Track ids on the wire: every request sent gets exactly one response with its id.
  const sentIds: JsonRpcId[] = [];
  const answeredIds: JsonRpcId[] = [];
  client.on((event) => {
    if (event.type === 'sent' && 'id' in event.message && 'method' in event.message) sentIds.push(event.message.id);
    if (event.type === 'received' && 'id' in event.message && !('method' in event.message) && event.message.id !== null && event.message.id !== undefined) {
      answeredIds.push(event.message.id);
    }
  });

  const init = await client.connect();
  expect(init.serverInfo.name).toBeTruthy();
  const tools = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('echo');

  const texts = Array.from({ length: CALLS_PER_CONNECTION }, (_, call) => `page ${page} call ${call}: ${TEXTS[call % TEXTS.length]}`);
  const results = await Promise.all(texts.map((text) => client.callTool('echo', { text })));
  results.forEach((result, call) => {
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: texts[call] }]);
  });

  expect(answeredIds).toHaveLength(sentIds.length);
  expect(new Set(answeredIds)).toEqual(new Set(sentIds));
  expect(sentIds).toHaveLength(CALLS_PER_CONNECTION + 2); // initialize + tools/list + the calls
  const serverPid = transport.serverPid;
  if (serverPid === undefined) throw new Error(`page ${page}: no spawn event seen`);
  return { transport, client, serverPid };
}

it(`${CONNECTIONS} concurrent pages x ${CALLS_PER_CONNECTION} echo calls, then nothing left running`, { timeout: 120_000 }, async () => {
  const started = performance.now();
  const pages = await Promise.all(Array.from({ length: CONNECTIONS }, (_, page) => runOnePage(page)));
  const ranMs = performance.now() - started;

  expect(testBridge.bridge.activeProcesses).toBe(CONNECTIONS);
  // The tap runs inside the bridge: one process per page, the server its spawn event names.
  const serverPids = pages.map((p) => p.serverPid);
  expect(new Set(serverPids).size).toBe(CONNECTIONS);
  expect(new Set(testBridge.bridge.serverPids)).toEqual(new Set(serverPids));

  // Closing the socket is the page going away; the bridge must clean up on its own.
  for (const { transport } of pages) transport.close();
  await waitUntil(() => testBridge.bridge.activeProcesses === 0, 10_000, 'every server to exit');
  await waitUntil(() => serverPids.every((pid) => !isAlive(pid)), 5_000, 'every process to be gone');
  const totalMs = performance.now() - started;

  console.log(
    `bridge load: ${CONNECTIONS} connections x ${CALLS_PER_CONNECTION} calls: ran in ${Math.round(ranMs)} ms, all ${CONNECTIONS} servers gone after ${Math.round(totalMs)} ms`,
  );
});
