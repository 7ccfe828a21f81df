// A spawned stdio server as the byte channel the protocol client expects: its stdin one way, its
// stdout the other, its stderr passed through to ours (a server's log is for people). Never a shell.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { ByteTransport, Unsubscribe } from '../src/protocol/transport.ts';

export class ChildProcessTransport implements ByteTransport {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  /** Settles when the process has exited and its stdout ended. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private failure: string | null = null;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    // A server that exits while we still write must not take this process down (EPIPE).
    this.child.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => resolve({ code, signal }));
      this.child.on('error', (error) => {
        this.failure = `could not start ${command}: ${error.message}`;
        resolve({ code: null, signal: null });
      });
    });
  }

  write(bytes: Uint8Array): void {
    this.child.stdin.write(bytes);
  }

  end(): void {
    this.child.stdin.end();
  }

  onData(listener: (chunk: Uint8Array) => void): Unsubscribe {
    // Plain Uint8Array views: the client is pure and must not depend on Buffer's extras.
    const onChunk = (chunk: Buffer) => listener(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.child.stdout.on('data', onChunk);
    return () => this.child.stdout.off('data', onChunk);
  }

  onClose(listener: (reason: string) => void): Unsubscribe {
    let active = true;
    void this.closed.then(({ code, signal }) => {
      if (active) listener(this.failure ?? (signal ? `server killed by ${signal}` : `server exited with code ${code}`));
    });
    return () => (active = false);
  }
}
