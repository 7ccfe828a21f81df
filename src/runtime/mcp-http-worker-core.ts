// The HTTP echo server inside a Web Worker, and a stand-in for the relay tap around it. The
// server is the same pure handler the Node program runs (mcp-http-program.ts); instead of
// node:http it is served over HTTP/1.1 bytes by http1-server.ts, one in-memory connection per
// `connect`. The events are the relay tap's (server/relay-tap.ts): spawn, open, c2s and s2c with
// the connection's number, close, stderr, exit — so the page reads the same HTTP bytes on every host.

import { connectionPair, type ByteConnection } from '../protocol/http/byte-connection.ts';
import { serveHttp1Connection } from '../protocol/http/http1-server.ts';
import type { HttpHandler } from '../protocol/http/server-handler.ts';
import type { ProgramSpec } from './host.ts';
import { isMcpHttpToolSet, MCP_HTTP_FAULTS, mcpHttpArguments } from './mcp-http-args.ts';
import { createMcpHttpHandler } from './mcp-http-program.ts';
import { base64ToBytes, bytesToBase64, parseTapCommand, roundTapTime, type TapCommand, type TapEvent } from './tap-protocol.ts';
import { wrongWorkerRefusal } from './echo-worker-core.ts';

type WithoutStamp<E> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;

export interface McpHttpWorkerCoreDeps {
  post(event: TapEvent): void;
  now?: () => number;
  /** Another HTTP program served the same way (the SDK's, sdk-http-worker.ts); default mcp-http. */
  serving?: HttpWorkerServing;
}

/** An HTTP program other than mcp-http: its name, its handler, the argv its Node twin is spawned with. */
export interface HttpWorkerServing {
  program: ProgramSpec['program'];
  argv: readonly string[];
  readyLine: string;
  createHandler(): HttpHandler;
}

export const MAX_WORKER_CONNECTIONS = 16;

export function createMcpHttpWorkerCore(deps: McpHttpWorkerCoreDeps): { handle(message: unknown): void } {
  const now = deps.now ?? (() => performance.now());
  let handler: HttpHandler | null = null;
  let exited = false;
  const connections = new Map<number, ByteConnection>();
  const used = new Set<number>();

  function report(body: WithoutStamp<TapEvent>): void {
    if (!exited) deps.post({ tap: 1, t: roundTapTime(now()), ...body } as TapEvent);
  }

  function log(line: string): void {
    report({ ev: 'stderr', b64: bytesToBase64(new TextEncoder().encode(`[mcp-http] ${line}\n`)) });
  }

  function start(spec: ProgramSpec): void {
    if (handler !== null) return report({ ev: 'error', message: 'already started: one worker runs one server' });
    const serving = deps.serving;
    if (serving !== undefined) {
      if (spec.program !== serving.program) return report({ ev: 'error', message: wrongWorkerRefusal(String(spec.program), serving.program) });
      if (spec.faults.length > 0 || spec.era !== undefined || spec.tools !== undefined || spec.framing !== 'ndjson') return report({ ev: 'error', message: `${serving.program} takes no faults, no era, no tool set and framing ndjson only` });
      handler = serving.createHandler();
      report({ ev: 'spawn', pid: 0, argv: ['node', ...serving.argv] });
      report({ ev: 'stderr', b64: bytesToBase64(new TextEncoder().encode(`${serving.readyLine}\n`)) });
      return;
    }
    if (spec.program !== 'mcp-http') return report({ ev: 'error', message: wrongWorkerRefusal(String(spec.program), 'mcp-http') });
    // The authorization server is oidc-provider on Node: no worker can run it.
    if (spec.auth !== undefined) return report({ ev: 'error', message: 'cannot start mcp-http --auth=self here: its authorization server needs Node (the local bridge or the WebContainer)' });
    const bad = spec.faults.filter((fault) => !MCP_HTTP_FAULTS.includes(fault));
    if (bad.length > 0) return report({ ev: 'error', message: `cannot start mcp-http: no ${bad.join(', ')} fault over HTTP` });
    if (spec.tools !== undefined && !isMcpHttpToolSet(spec.tools)) return report({ ev: 'error', message: 'cannot start mcp-http: unknown tool set' });
    const tools = spec.tools ?? 'echo';
    handler = createMcpHttpHandler({ tools, faults: spec.faults });
    report({ ev: 'spawn', pid: 0, argv: ['node', 'mcp-http.mjs', ...mcpHttpArguments(spec.faults, tools)] });
    log(`pid 0 (in-browser worker), tools ${tools}, faults: ${spec.faults.length > 0 ? spec.faults.join(', ') : 'none'}, serving HTTP/1.1 in the worker`);
  }

  function run(command: TapCommand): void {
    if (handler === null || exited) return;
    switch (command.cmd) {
      case 'connect': {
        if (used.has(command.conn)) return report({ ev: 'error', message: `connection ${command.conn} was already used` });
        if (connections.size >= MAX_WORKER_CONNECTIONS) return report({ ev: 'close', conn: command.conn, message: `at most ${MAX_WORKER_CONNECTIONS} connections at once` });
        used.add(command.conn);
        const [client, server] = connectionPair();
        connections.set(command.conn, client);
        const conn = command.conn;
        client.onData((chunk) => report({ ev: 's2c', conn, b64: bytesToBase64(chunk) }));
        client.onEnd(() => {
          connections.delete(conn);
          report({ ev: 'close', conn });
        });
        report({ ev: 'open', conn });
        serveHttp1Connection(handler, server);
        return;
      }
      case 'write': {
        if (command.conn === undefined) return report({ ev: 'error', message: 'mcp-http reads no stdin: write to a connection' });
        const connection = connections.get(command.conn);
        if (!connection) return report({ ev: 'error', message: `write to connection ${command.conn}, which is not open` });
        // c2s first, as the relay reports a write once the socket took it.
        report({ ev: 'c2s', conn: command.conn, b64: command.b64 });
        connection.write(base64ToBytes(command.b64));
        return;
      }
      case 'close':
        connections.get(command.conn)?.close();
        return;
      case 'eof':
        return;
      case 'kill':
        handler.closeAll();
        for (const connection of connections.values()) connection.close();
        report({ ev: 'exit', code: null, signal: command.signal ?? 'SIGTERM' });
        exited = true;
        return;
    }
  }

  return {
    handle(message) {
      if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'start') {
        const spec = (message as { spec?: unknown }).spec as ProgramSpec | undefined;
        if (typeof spec !== 'object' || spec === null || !Array.isArray(spec.faults)) return report({ ev: 'error', message: 'malformed start message' });
        return start(spec);
      }
      // The same checks the tap's own command parser makes.
      let command: TapCommand | null = null;
      try {
        command = parseTapCommand(JSON.stringify(message));
      } catch {
        command = null;
      }
      if (command === null) return report({ ev: 'error', message: 'malformed command' });
      run(command);
    },
  };
}
