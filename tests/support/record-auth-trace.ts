// Records the authorization scene on a real bridge, as the page runs it, into the trace the worker
// host opens instead (public/traces/authorization-scene.jsonl): in the worker no Node process runs,
// so no authorization server can. The sign-in runs to its end with Allow, and the trace's secrets
// are hidden (same length), as the page saves them. Re-run after a change to the flow:
// `npm run --silent record-auth-trace`; tests/integration/authorization-scene.test.ts checks that the
// file still matches a fresh run, exchange for exchange. (Under tests/: it runs the page's code in
// Node, as the tests do.)

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket as WsWebSocket } from 'ws';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { createBridge } from '../../server/bridge.ts';
import { AuthSceneStore } from '../../src/app/protocol/auth-scene-store.ts';
import { redactEvents } from '../../src/app/protocol/auth-redaction.ts';
import { httpTraceText } from '../../src/app/trace/trace-export.ts';
import { createBridgeHost } from '../../src/runtime/bridge-host.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

export const RECORDED_AUTH_TRACE = join(PROJECT_ROOT, 'public', 'traces', 'authorization-scene.jsonl');

async function record(): Promise<string> {
  const programsDir = await mkdtemp(join(tmpdir(), 'mcp-auth-trace-'));
  await buildNodePrograms(programsDir);
  const token = 'record-auth-trace-0123456789abcdef';
  let origin = '';
  const bridge = createBridge({ log: () => {}, learnerCode: { run: 'never', why: 'not-enabled' }, programsDir, token, allowedOrigins: () => [origin] });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head: Buffer) => {
    if (!bridge.handleUpgrade(request, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  try {
    const WebSocketImpl = class extends WsWebSocket {
      constructor(url: string) {
        super(url, { origin });
      }
    } as unknown as typeof WebSocket;
    const host = createBridgeHost({ WebSocketImpl, url: `ws://127.0.0.1:${port}/bridge`, token, pageOrigin: origin });
    const scene = new AuthSceneStore({ startProgram: async (spec) => (await host.start(spec)) as HttpWire });
    await scene.runToEnd({ allow: true });
    const { status, outcome } = scene.getSnapshot();
    if (status.status !== 'done' || outcome?.ok !== true) throw new Error(`the sign-in did not finish: ${JSON.stringify({ status, outcome })}`);
    const recording = scene.recording()!;
    return httpTraceText({ ...recording, events: redactEvents(recording.events) });
  } finally {
    await bridge.closeAll();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(programsDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await record();
  await writeFile(RECORDED_AUTH_TRACE, text);
  console.log(`${RECORDED_AUTH_TRACE}: ${text.split('\n').length - 1} lines, ${text.length} bytes`);
}
