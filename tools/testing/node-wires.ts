// For Node tests: real Wires to run the checks over.
// - programWire: a built Node program (public/generated/*.mjs) as a real child process behind the
//   real tap core, as the bridge runs it.
// - learnerServerWire: the learner's exercise-4 code in the worker host's learner-server core, in
//   this process, behind the tap wire.

import { join } from 'node:path';
import { startTap, type TapCore } from '../../server/tap-core.ts';
import { startRelayTap } from '../../server/relay-tap.ts';
import { createHttpTapWire, type HttpWire } from '../../src/runtime/http-tap-wire.ts';
import { createMcpHttpWorkerCore } from '../../src/runtime/mcp-http-worker-core.ts';
import { SDK_HTTP_SERVING } from '../../src/runtime/sdk-http-serving.ts';
import { loadProtocolModulesFromDisk } from '../catalogue-node.ts';
import { PROJECT_ROOT } from '../project-root.ts';
import type { ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import type { HostKind, Wire } from '../../src/runtime/host.ts';
import { createLearnerServerWorkerCore, type LearnerServerWorkerCore } from '../../src/runtime/learner-server-worker-core.ts';
import { encodeTapEvent, parseTapCommand, type TapCommand } from '../../src/runtime/tap-protocol.ts';
import { createTapWire, type LineChannel } from '../../src/runtime/tap-wire.ts';

const taps: TapCore[] = [];
const closers: Array<() => void> = [];

/** Kill every program and close every channel started so far (call from afterEach). */
export function stopAllWires(): void {
  for (const tap of taps.splice(0)) if (!tap.ended) tap.kill('SIGKILL');
  for (const close of closers.splice(0)) close();
}

export function builtProgramPath(name: 'echo-server' | 'sdk-echo-server' | 'sdk2-echo-server'): string {
  return join(PROJECT_ROOT, 'public/generated', `${name}.mjs`);
}

/** A LineChannel whose other end is `handle` (commands) and `emit` (event lines), a macrotask apart. */
function lineChannel(handle: (command: TapCommand) => void): { channel: LineChannel; emit(line: string): void; end(reason: string): void } {
  const lineListeners = new Set<(line: string) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  let closed = false;
  const channel: LineChannel = {
    send(line) {
      const command = parseTapCommand(line);
      if (command) setTimeout(() => handle(command), 0);
    },
    close() {
      closed = true;
    },
    onLine(listener) {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  };
  closers.push(() => {
    closed = true;
  });
  return {
    channel,
    emit: (line) =>
      setTimeout(() => {
        if (!closed) for (const listener of [...lineListeners]) listener(line);
      }, 0),
    end: (reason) =>
      setTimeout(() => {
        for (const listener of [...closeListeners]) listener(reason);
      }, 0),
  };
}

export function programWire(path: string, args: readonly string[] = [], kind: HostKind = 'bridge'): Wire {
  let tap: TapCore | undefined;
  const { channel, emit, end } = lineChannel((command) => tap?.run(command));
  tap = startTap({ argv: [process.execPath, path, ...args], onLine: (line) => emit(line), onEnd: () => end('tap ended') });
  taps.push(tap);
  return createTapWire(kind, channel, { killGraceMs: 1000 });
}

/** The page's Origin in these tests (a loopback page, as the bridge serves it). */
export const TEST_PAGE_ORIGIN = 'http://127.0.0.1:5173';

/**
 * The official SDK's Streamable HTTP echo server behind the page's HTTP wire: on the bridge, the
 * built sdk-http-server.mjs as a child process behind the real relay tap (real TCP); on the worker
 * host, the same handler in the worker core, served over HTTP/1.1 bytes in this process.
 */
export function sdkHttpWire(kind: HostKind = 'bridge'): HttpWire {
  if (kind === 'worker') {
    const { channel, emit } = lineChannel((command) => core.handle(command));
    const core = createMcpHttpWorkerCore({ post: (event) => emit(encodeTapEvent(event)), serving: SDK_HTTP_SERVING });
    core.handle({ type: 'start', spec: { program: 'sdk-http-server', framing: 'ndjson', faults: [] } });
    return createHttpTapWire('worker', channel, { origin: TEST_PAGE_ORIGIN });
  }
  let tap: TapCore | undefined;
  const { channel, emit, end } = lineChannel((command) => tap?.run(command));
  tap = startRelayTap({ argv: [process.execPath, join(PROJECT_ROOT, 'public/generated', 'sdk-http-server.mjs')], onLine: (line) => emit(line), onEnd: () => end('tap ended') });
  taps.push(tap);
  return createHttpTapWire(kind, channel, { origin: TEST_PAGE_ORIGIN });
}

let modules: Promise<ProtocolModules> | undefined;
export function protocolModules(): Promise<ProtocolModules> {
  modules ??= loadProtocolModulesFromDisk();
  return modules;
}

/**
 * The learner's exercise-4 code serving the echo tools over NDJSON, in this process: the worker
 * host's own learner-server core (the one its Web Worker runs), so the tap events are exactly the
 * worker host's — the load failure's stderr line and exit code 3 included.
 */
export function learnerServerWire(code: string, loaded: ProtocolModules): Wire {
  let core: LearnerServerWorkerCore | undefined;
  const { channel, emit } = lineChannel((command) => core?.handle(command));
  core = createLearnerServerWorkerCore({
    protocolModules: loaded,
    post: (message) => {
      if ('ev' in message) emit(encodeTapEvent(message));
    },
  });
  closers.push(() => core?.dispose());
  const wire = createTapWire('worker', channel, { killGraceMs: 500 });
  core.handle({ type: 'start', spec: { program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code, file: 'server.ts', moduleId: '@protocol/server' } } });
  return wire;
}
