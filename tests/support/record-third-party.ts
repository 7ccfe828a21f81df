// Records a real MCP server nobody here wrote — @modelcontextprotocol/server-memory, pinned in
// package.json — through the real tap (`tap.mjs --record=FILE -- <server>`), driving it through
// the tap's line protocol exactly as the page does: the handshake, tools/list and one tools/call.
// Shared by the integration test and the end-to-end test that opens the trace in Chromium.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bytesToBase64, encodeTapCommand, parseTapEvent, TapLineSplitter, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

export const THIRD_PARTY_PACKAGE = '@modelcontextprotocol/server-memory';
export const THIRD_PARTY_SERVER = resolve(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

/** What the test's client sends, one NDJSON message per write (the server's framing). */
export const THIRD_PARTY_SESSION = {
  initialize: {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'trace-third-party', version: '1.0.0' } },
  },
  initialized: { jsonrpc: '2.0', method: 'notifications/initialized' },
  list: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  call: {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'create_entities',
      arguments: { entities: [{ name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program', '写了第一个程序'] }] },
    },
  },
} as const;

export interface ThirdPartyRecording {
  /** Every NDJSON line written to the server, in order, as bytes. */
  sent: Uint8Array[];
  /** The events the tap printed (the trace file must hold exactly these). */
  printed: TapEvent[];
  exitCode: number | null;
}

/**
 * Run the tap with --record=traceFile around server-memory (its memory file in memoryFile), send
 * the session one message at a time, waiting for each reply, then EOF. `tap` is the tap program
 * (public/generated/tap.mjs).
 */
export async function recordThirdPartyServer(tap: string, traceFile: string, memoryFile: string, timeoutMs = 15_000): Promise<ThirdPartyRecording> {
  // `env` (a real program, no shell) gives the server its memory file without touching ours.
  const child = spawn(process.execPath, [tap, `--record=${traceFile}`, '--', 'env', `MEMORY_FILE_PATH=${memoryFile}`, process.execPath, THIRD_PARTY_SERVER], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const printed: TapEvent[] = [];
  const splitter = new TapLineSplitter();
  let stdoutText = '';
  let waiting: { check: () => boolean; done: () => void } | null = null;
  child.stdout.setEncoding('ascii');
  child.stdout.on('data', (text: string) => {
    for (const line of splitter.push(text)) {
      const event = parseTapEvent(line);
      if (event) printed.push(event);
    }
    stdoutText += text;
    if (waiting?.check()) waiting.done();
  });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const closed = new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);

  const replies = (): string =>
    Buffer.concat(printed.flatMap((event) => (event.ev === 's2c' ? [Buffer.from(event.b64, 'base64')] : []))).toString('utf8');
  const until = (check: () => boolean, what: string): Promise<void> =>
    new Promise((resolveWait, reject) => {
      if (check()) return resolveWait();
      waiting = { check, done: () => ((waiting = null), resolveWait()) };
      void closed.then(() => {
        if (!check()) reject(new Error(`the tap ended before ${what}; stderr:\n${stderr.join('')}\nstdout:\n${stdoutText.slice(0, 2000)}`));
      });
    });

  const sent: Uint8Array[] = [];
  const send = (message: unknown): void => {
    const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
    sent.push(bytes);
    child.stdin.write(`${encodeTapCommand({ cmd: 'write', b64: bytesToBase64(bytes) })}\n`);
  };
  try {
    send(THIRD_PARTY_SESSION.initialize);
    await until(() => replies().includes('"id":0'), 'the initialize reply');
    send(THIRD_PARTY_SESSION.initialized);
    send(THIRD_PARTY_SESSION.list);
    await until(() => replies().includes('"id":1'), 'the tools/list reply');
    send(THIRD_PARTY_SESSION.call);
    await until(() => replies().includes('"id":2'), 'the tools/call reply');
    child.stdin.end(`${encodeTapCommand({ cmd: 'eof' })}\n`);
    return { sent, printed, exitCode: await closed };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
