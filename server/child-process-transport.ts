// A spawned stdio server as the byte channel the protocol client expects: its stdin one way, its
// stdout the other, its stderr passed through to ours (a server's log is for people). Never a shell.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { ByteTransport, Unsubscribe } from '../src/protocol/transport.ts';

/** The slice of a child process the byte channel uses: its stdin, its stdout and its end. */
export interface StdioChild {
  readonly stdin: Writable;
  readonly stdout: Readable;
}

/** Any child process's stdin/stdout as a byte channel; `closed` says when and how it ended. */
export class ChildStdioTransport implements ByteTransport {
  private failure: string | null = null;

  constructor(
    private readonly stdio: StdioChild,
    /** Settles when the process has exited and its stdout ended. */
    readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  ) {
    // A server that exits while we still write must not take this process down (EPIPE).
    stdio.stdin.on('error', () => {});
  }

  /** Why the process never ran, if it did not (then the close reason says so). */
  protected failedToStart(reason: string): void {
    this.failure = reason;
  }

  write(bytes: Uint8Array): void {
    this.stdio.stdin.write(bytes);
  }

  end(): void {
    this.stdio.stdin.end();
  }

  onData(listener: (chunk: Uint8Array) => void): Unsubscribe {
    // Plain Uint8Array views: the client is pure and must not depend on Buffer's extras.
    const onChunk = (chunk: Buffer) => listener(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.stdio.stdout.on('data', onChunk);
    return () => this.stdio.stdout.off('data', onChunk);
  }

  onClose(listener: (reason: string) => void): Unsubscribe {
    let active = true;
    void this.closed.then(({ code, signal }) => {
      if (active) listener(this.failure ?? (signal ? `server killed by ${signal}` : `server exited with code ${code}`));
    });
    return () => (active = false);
  }
}

/** Spawns `command` (no shell) and speaks to it over its stdio; its stderr goes to ours. */
export class ChildProcessTransport extends ChildStdioTransport {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;

  constructor(command: string, args: readonly string[]) {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let self: ChildProcessTransport | undefined;
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal }));
      child.on('error', (error) => {
        self?.failedToStart(`could not start ${command}: ${error.message}`);
        resolve({ code: null, signal: null });
      });
    });
    super(child, closed);
    self = this;
    this.child = child;
  }
}

/** The close of an already spawned child, as ChildStdioTransport wants it. */
export function closeOf(child: { on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown }): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
}
