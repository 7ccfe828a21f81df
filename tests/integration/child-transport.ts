// The Node host for the protocol client, in its smallest form: a child process's stdin/stdout as a
// ByteTransport. Also the bookkeeping the integration tests share: where the built programs are,
// spawning them with every byte recorded, waiting with a deadline, and killing what is left.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { ChildStdioTransport, closeOf } from '../../server/child-process-transport.ts';


export type BuiltProgram = 'echo-server' | 'tap' | 'sdk-echo-server' | 'learner-server';

/** The bundled program the tests spawn; built once by tests/global-setup.ts. */
export function builtProgram(name: BuiltProgram): string {
  const file = resolve(PROJECT_ROOT, 'public/generated', `${name}.mjs`);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run the tests with globalSetup tests/global-setup.ts, or npx tsx scripts/build-node-programs.ts`);
  }
  return file;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<RunningProgram>();

/** A spawned child with everything it printed kept, chunk by chunk. */
export class RunningProgram {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdoutChunks: Buffer[] = [];
  readonly stderrChunks: Buffer[] = [];
  /** Settles on 'close': the process exited and both output pipes ended. */
  readonly closed: Promise<ExitStatus>;
  private readonly changeListeners = new Set<() => void>();

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(this);
    // A test may close stdin on a process that already exited; that must not crash the run.
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('data', (chunk: Buffer) => this.record(this.stdoutChunks, chunk));
    this.child.stderr.on('data', (chunk: Buffer) => this.record(this.stderrChunks, chunk));
    this.closed = new Promise((resolveClosed) => {
      this.child.on('close', (code, signal) => {
        live.delete(this);
        resolveClosed({ code, signal });
        this.notify();
      });
      this.child.on('error', () => {
        live.delete(this);
        resolveClosed({ code: null, signal: null });
        this.notify();
      });
    });
  }

  get stdout(): Buffer {
    return Buffer.concat(this.stdoutChunks);
  }
  get stderr(): string {
    return Buffer.concat(this.stderrChunks).toString('utf8');
  }
  get isClosed(): boolean {
    return !live.has(this);
  }

  write(bytes: Uint8Array | string): Promise<void> {
    return new Promise((resolveWrite, reject) => {
      this.child.stdin.write(bytes, (error) => (error ? reject(error) : resolveWrite()));
    });
  }

  /** Write one byte at a time, yielding to the event loop in between, so the reader sees them apart. */
  async writeByteByByte(bytes: Uint8Array): Promise<void> {
    for (const byte of bytes) {
      await this.write(Uint8Array.of(byte));
      await new Promise((next) => setImmediate(next));
    }
  }

  end(): void {
    this.child.stdin.end();
  }

  /** Resolve once `condition` holds (checked after every output chunk and on exit), or fail after `timeoutMs`. */
  waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolveWait, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.changeListeners.delete(check);
        resolveWait();
      };
      const timer = setTimeout(() => {
        this.changeListeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr so far:\n${this.stderr}`));
      }, timeoutMs);
      this.changeListeners.add(check);
    });
  }

  /** The exit status, or a rejection if the process is still running after `timeoutMs`. */
  async exit(timeoutMs = 5000): Promise<ExitStatus> {
    await this.waitFor(() => this.isClosed, 'the process to exit', timeoutMs);
    return this.closed;
  }

  private record(into: Buffer[], chunk: Buffer): void {
    into.push(chunk);
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.changeListeners]) listener();
  }
}

export function startNode(file: string, args: readonly string[] = []): RunningProgram {
  return new RunningProgram(process.execPath, [file, ...args]);
}

/** For afterEach/afterAll: SIGKILL every process a test left running and wait until each is gone. */
export async function killAllPrograms(): Promise<void> {
  const remaining = [...live];
  for (const program of remaining) program.child.kill('SIGKILL');
  await Promise.all(remaining.map((program) => program.closed));
}

/** A child process's stdin/stdout as the byte channel the protocol client expects (the CLI's own). */
export class ChildTransport extends ChildStdioTransport {
  constructor(child: ChildProcessWithoutNullStreams) {
    super(child, closeOf(child));
  }
}
