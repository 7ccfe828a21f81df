// Who speaks for the page in the HTTP stepper. Both do the same five things over the same HTTP
// wire (src/runtime/http-tap-wire.ts), so the stepper reads the same relayed bytes either way:
//
//   reference  the project's McpClient over the wire's own HttpClientTransport, on the page
//   learner    the learner's exercise-6 HttpClientTransport (their SseReader inside) under the
//              project's McpClient in the learner worker; its requests come back to the page and go
//              out through the wire's HTTP/1.1 client (LearnerHttpDriver)
//
// A failure of the learner's code (a throw, an uncaught error in a timer, a worker that stopped
// beating) rejects the step with the learner's own message and line, so a starter's TODO shows in
// the stepper instead of a wait.

import { McpClient } from '../../protocol/client.ts';
import type { InitializeResult } from '../../protocol/mcp.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { HTTP_WIRE_URL } from '../../runtime/http-tap-wire.ts';
import type { CallOutcome, DriverOp, ErrorInfo } from '../../sandbox/client-driver.ts';
import type { LearnerHttpDriver } from './learner-http-driver.ts';

/** How long the stepper waits for any one answer: the server answers at once, nothing holds it back. */
export const HTTP_STEP_TIMEOUT_MS = 15_000;

export interface HttpStepClient {
  initialize(): Promise<InitializeResult>;
  notifyInitialized(): Promise<void>;
  /** tools/call echo with a progress token in `_meta`. */
  callWithProgress(args: Record<string, unknown>, progressToken: string): Promise<unknown>;
  /** End the session: the transport sends DELETE. */
  end(): Promise<void>;
  /** Each notifications/progress params that reached the client. */
  onProgress(listener: (params: Record<string, unknown> | undefined) => void): void;
  /** Rejects when the client's code failed outside a call (never resolves otherwise). */
  readonly failed: Promise<never>;
  dispose(): void;
}

export function referenceStepClient(wire: HttpWire): HttpStepClient {
  const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: HTTP_STEP_TIMEOUT_MS });
  return {
    initialize: () => client.initialize(),
    notifyInitialized: async () => client.notifyInitialized(),
    callWithProgress: (args, progressToken) => client.sendRequest('tools/call', { name: 'echo', arguments: args, _meta: { progressToken } }),
    end: async () => wire.end(),
    onProgress(listener) {
      client.on((event) => {
        if (event.type === 'notification' && event.message.method === 'notifications/progress') listener(event.message.params as Record<string, unknown> | undefined);
      });
    },
    failed: new Promise<never>(() => {}),
    dispose: () => {},
  };
}

/** The file name in messages ("streamable-client.ts line 12"). */
export async function learnerStepClient(driver: LearnerHttpDriver, wire: HttpWire, file: string): Promise<HttpStepClient> {
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const progress = new Set<(params: Record<string, unknown> | undefined) => void>();
  driver.onEvent((event) => {
    if (event.type === 'uncaught') fail(new Error(`your code threw where nobody could catch it: ${describeLearnerError(event.error, file)}`));
    else if (event.type === 'crashed') fail(new Error(event.reason));
    else if (event.type === 'notification' && 'method' in event.message && event.message.method === 'notifications/progress') {
      for (const listener of progress) listener((event.message as { params?: Record<string, unknown> }).params);
    }
  });
  const started = await driver.start(wire.exchange, HTTP_WIRE_URL);
  if (!started.ok) {
    driver.dispose();
    throw new Error(`your exercise 6 module did not start: ${describeLearnerError(started.error, file)}`);
  }
  const perform = async (op: DriverOp, what: string): Promise<unknown> => {
    const outcome: CallOutcome = await Promise.race([driver.perform(op), failed]);
    if (outcome.ok) return outcome.value;
    throw new Error(`${what} threw ${describeLearnerError(outcome.error, file)}`);
  };
  return {
    initialize: async () => (await perform({ op: 'initialize' }, 'initialize()')) as InitializeResult,
    notifyInitialized: async () => void (await perform({ op: 'notifyInitialized' }, 'notifyInitialized()')),
    callWithProgress: (args, progressToken) => perform({ op: 'callTool', name: 'echo', args, meta: { progressToken } }, 'tools/call'),
    end: async () => void (await perform({ op: 'close' }, 'close()')),
    onProgress: (listener) => void progress.add(listener),
    failed,
    dispose: () => driver.dispose(),
  };
}

export function describeLearnerError(error: ErrorInfo, file: string): string {
  const where = error.line === null ? '' : ` (${file} line ${error.line})`;
  const code = error.code === null ? '' : ` [code ${error.code}]`;
  return `${error.name}${code}: ${error.message}${where}`;
}
