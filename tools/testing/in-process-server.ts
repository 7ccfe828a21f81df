// For Node tests: the real echo server session behind a real tap wire, in this process. The worker
// host's core produces exactly the tap events the real tap does, and the line channel delivers
// them a macrotask later, as a worker or a socket would.

import type { FaultName } from '../../src/protocol/faults.ts';
import type { FramingName } from '../../src/protocol/framing/types.ts';
import { createEchoWorkerCore } from '../../src/runtime/echo-worker-core.ts';
import type { EchoEra } from '../../src/runtime/echo-server-args.ts';
import type { Wire } from '../../src/runtime/host.ts';
import { encodeTapEvent, parseTapCommand } from '../../src/runtime/tap-protocol.ts';
import { createTapWire, type LineChannel } from '../../src/runtime/tap-wire.ts';
import type { ServerPort, ServerSettings } from '../../src/app/protocol/stepper-types.ts';

export function inProcessWire(framing: FramingName, faults: readonly FaultName[] = [], era?: EchoEra): Wire {
  const lineListeners = new Set<(line: string) => void>();
  let closed = false;
  // A fixed random source, so split-writes cuts the same way in every run.
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const core = createEchoWorkerCore({
    post: (event) => {
      const line = encodeTapEvent(event);
      setTimeout(() => {
        if (!closed) for (const listener of [...lineListeners]) listener(line);
      }, 0);
    },
    random,
  });
  const channel: LineChannel = {
    send(line) {
      const command = parseTapCommand(line);
      if (command) setTimeout(() => core.handle(command), 0);
    },
    close() {
      closed = true;
    },
    onLine(listener) {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    onClose() {
      return () => {};
    },
  };
  const wire = createTapWire('worker', channel, { killGraceMs: 200 });
  core.handle({ type: 'start', spec: { program: 'echo-server', framing, faults: [...faults], ...(era === undefined ? {} : { era }) } });
  return wire;
}

/** A ServerPort over in-process servers; `started` lists the settings of every start. */
export function inProcessServerPort(initial: ServerSettings = { framing: 'content-length', faults: [] }): ServerPort & { started: ServerSettings[]; wires: Wire[] } {
  const started: ServerSettings[] = [];
  const wires: Wire[] = [];
  return {
    started,
    wires,
    settings: () => initial,
    async start(settings) {
      for (const wire of wires) wire.kill();
      started.push(settings);
      const wire = inProcessWire(settings.framing, settings.faults, settings.era);
      wires.push(wire);
      return { ok: true, wire };
    },
  };
}
