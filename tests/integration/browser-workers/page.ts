// The page side of worker-programs-browser.test.ts: the real worker host (createWorkerHost), with
// each program's worker made from the entry files bundled for the browser. Node calls these
// functions through page.evaluate.

import { McpClient } from '../../../src/protocol/client.ts';
import type { LearnerServerSource, ProgramName, ProgramSpec } from '../../../src/runtime/host.ts';
import type { TapEvent } from '../../../src/runtime/tap-protocol.ts';
import { base64ToBytes } from '../../../src/runtime/tap-protocol.ts';
import { adaptWorker } from '../../../src/sandbox/worker-adapter.ts';
import { createWorkerHost } from '../../../src/runtime/worker-host.ts';

const WORKER_FILES: Record<ProgramName, string> = {
  'echo-server': './echo-worker.js',
  'learner-server': './learner-server-worker.js',
  'sdk-echo-server': './sdk-echo-worker.js',
  'sdk2-echo-server': './sdk2-echo-worker.js',
  'mcp-http': './mcp-http-worker.js',
  'sdk-http-server': './sdk-http-worker.js',
};

export interface CheckResult {
  serverName: string | null;
  tools: string[];
  echoed: unknown;
  failIsError: boolean | null;
  error: string | null;
  closeReason: string;
  stderr: string;
  argv: string[];
}

async function check(program: ProgramName, learnerServer?: LearnerServerSource): Promise<CheckResult> {
  const host = createWorkerHost({ createWorker: (name) => adaptWorker(new Worker(WORKER_FILES[name], { type: 'module' })) });
  const spec: ProgramSpec = { program, framing: 'ndjson', faults: [], ...(learnerServer ? { learnerServer } : {}) };
  const wire = await host.start(spec);
  const events: TapEvent[] = [];
  wire.onTapEvent((event) => events.push(event));
  const closed = new Promise<string>((resolve) => wire.onClose(resolve));
  const result: CheckResult = { serverName: null, tools: [], echoed: null, failIsError: null, error: null, closeReason: '', stderr: '', argv: [] };
  const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 8_000 });
  try {
    const initialize = await client.connect();
    result.serverName = initialize.serverInfo.name;
    result.tools = (await client.listTools()).map((tool) => tool.name).sort();
    result.echoed = (await client.callTool('echo', { text: '你好 👋' })).content;
    if (result.tools.includes('fail')) result.failIsError = (await client.callTool('fail', { message: 'on purpose' })).isError === true;
    client.close();
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.closeReason = await closed;
  result.stderr = events.map((event) => (event.ev === 'stderr' ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
  const spawn = events.find((event) => event.ev === 'spawn');
  result.argv = spawn?.ev === 'spawn' ? spawn.argv : [];
  return result;
}

declare global {
  interface Window {
    workerPrograms?: { check: typeof check };
  }
}

window.workerPrograms = { check };
