// The in-browser HTTP host without a browser, for Node tests: the mcp-http worker core behind a
// line channel, and the page's HTTP wire in front of it.

import { createHttpTapWire, type HttpWire } from '../../src/runtime/http-tap-wire.ts';
import { ListenerSet } from '../../src/runtime/listener-set.ts';
import { createMcpHttpWorkerCore } from '../../src/runtime/mcp-http-worker-core.ts';
import { encodeTapEvent, parseTapCommand, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import type { LineChannel } from '../../src/runtime/tap-wire.ts';
import type { ProgramSpec } from '../../src/runtime/host.ts';

export function workerChannel(): { channel: LineChannel; core: ReturnType<typeof createMcpHttpWorkerCore>; posted: TapEvent[] } {
  const lines = new ListenerSet<string>();
  const closes = new ListenerSet<string>();
  const posted: TapEvent[] = [];
  let t = 0;
  // Posted asynchronously, as postMessage delivers.
  const core = createMcpHttpWorkerCore({ post: (event) => (posted.push(event), queueMicrotask(() => lines.emit(encodeTapEvent(event)))), now: () => t++ });
  const channel: LineChannel = {
    send: (line) => queueMicrotask(() => core.handle(parseTapCommand(line))),
    close: () => {},
    onLine: lines.add,
    onClose: closes.add,
  };
  return { channel, core, posted };
}

/** Start mcp-http as the worker host would, and hand back its wire. */
export async function startWorkerHttpWire(spec: ProgramSpec, origin = 'http://127.0.0.1:5173'): Promise<HttpWire> {
  const { channel, core } = workerChannel();
  const wire = createHttpTapWire('worker', channel, { origin });
  core.handle({ type: 'start', spec });
  return wire;
}
