// Watches a running server through its tap events, so a check that waits on a crashed or hung
// server can fail with the server's own last words (its stderr line, its exit code) instead of a
// bare timeout. It also keeps every byte the client sent (c2s), for checks about the client's
// own output.

import type { Unsubscribe } from '../../protocol/transport.ts';
import type { Wire } from '../../runtime/host.ts';
import { base64ToBytes, type TapEvent } from '../../runtime/tap-protocol.ts';
import { describeExit } from '../../runtime/tap-wire.ts';

const STDERR_LINES_KEPT = 20;

export interface ServerWatch {
  /** Why the server is gone, or null while it runs. */
  readonly downReason: string | null;
  /** Resolves with that reason once the server is gone. */
  readonly down: Promise<string>;
  /** The exit, once seen. */
  readonly exit: { code: number | null; signal: string | null } | null;
  /** The server's stderr, as complete lines (the newest last). */
  stderrLines(): string[];
  /** Every byte the client wrote to the server's stdin, in order. */
  clientBytes(): Uint8Array;
  dispose(): void;
}

export function watchServer(wire: Pick<Wire, 'onTapEvent' | 'onClose'>): ServerWatch {
  const decoder = new TextDecoder();
  const stderr: string[] = [];
  let partial = '';
  const sent: Uint8Array[] = [];
  let downReason: string | null = null;
  let exit: ServerWatch['exit'] = null;
  let tapError: string | null = null;
  let settle!: (reason: string) => void;
  const down = new Promise<string>((resolve) => {
    settle = resolve;
  });

  function goDown(reason: string): void {
    if (downReason !== null) return;
    const last = lastStderr();
    downReason = last === null ? reason : `${reason}; its last stderr line: ${last}`;
    settle(downReason);
  }

  function lastStderr(): string | null {
    const lines = partial.trim() === '' ? stderr : [...stderr, partial];
    for (let index = lines.length - 1; index >= 0; index--) if (lines[index]!.trim() !== '') return lines[index]!.trim();
    return null;
  }

  function onEvent(event: TapEvent): void {
    switch (event.ev) {
      case 'stderr': {
        const text = partial + decoder.decode(base64ToBytes(event.b64), { stream: true });
        const lines = text.split('\n');
        partial = lines.pop() ?? '';
        stderr.push(...lines.map((line) => line.replace(/\r$/, '')));
        stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES_KEPT));
        return;
      }
      case 'c2s':
        sent.push(base64ToBytes(event.b64));
        return;
      case 'exit':
        exit = { code: event.code, signal: event.signal };
        goDown(describeExit(event));
        return;
      case 'error':
        tapError = event.message;
        return;
      default:
        return;
    }
  }

  const stops: Unsubscribe[] = [
    wire.onTapEvent(onEvent),
    wire.onClose((reason) => goDown(tapError !== null && !reason.includes(tapError) ? `${reason} (${tapError})` : reason)),
  ];

  return {
    get downReason() {
      return downReason;
    },
    down,
    get exit() {
      return exit;
    },
    stderrLines: () => (partial === '' ? [...stderr] : [...stderr, partial]),
    clientBytes() {
      const total = sent.reduce((sum, chunk) => sum + chunk.length, 0);
      const all = new Uint8Array(total);
      let at = 0;
      for (const chunk of sent) {
        all.set(chunk, at);
        at += chunk.length;
      }
      return all;
    },
    dispose: () => stops.forEach((stop) => stop()),
  };
}
