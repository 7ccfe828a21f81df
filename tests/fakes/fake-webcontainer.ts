// A faithful stand-in for `@webcontainer/api`'s WebContainer, for Node tests. The real runtime
// cannot load without StackBlitz's servers, so the host is tested against this instead; what makes
// it worth testing against is that it reproduces the pseudo-terminal, not a tidy pipe:
//
// - spawn('node', args) runs the REAL node on the REAL mounted files (a temp dir);
// - stdout and stderr arrive merged, in one `ReadableStream<string>`;
// - bytes are re-chunked at random small sizes (seeded) and each chunk is decoded on its own by a
//   non-streaming TextDecoder, so a multi-byte character split across chunks turns into U+FFFD;
// - every "\n" the process prints arrives as "\r\n" (the terminal's ONLCR);
// - escape sequences (bracketed-paste toggles, colour resets, a window title) are mixed in;
// - what is written to `input` is echoed into the output, and a written "\r" reaches the process
//   as "\n" (ICRNL), so "\r\n" arrives as "\n\n".
//
// Boot can resolve, never settle (the real one's behaviour offline) or reject.

import { spawn as spawnChild, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileSystemTree } from '@webcontainer/api';
import type { MountTree, SpawnOptionsLike, WebContainerLike, WebContainerProcessLike } from '../../src/runtime/webcontainer-host.ts';

export interface FakeTerminalOptions {
  /** Seed of the chunking and escape-injection randomness. */
  seed?: number;
  /** Largest output chunk, in bytes (each chunk is 1..maxChunk). */
  maxChunk?: number;
  /** Chance of an escape sequence at each chunk boundary. */
  escapeRate?: number;
  /** Echo typed input into the output, as a terminal in cooked mode does. */
  echo?: boolean;
}

export type BootBehaviour = 'resolve' | 'never' | { reject: string };

export interface FakeBootOptions {
  behaviour?: BootBehaviour;
  terminal?: FakeTerminalOptions;
}

/** What the fake terminal did, so tests can show the hostile path was really taken. */
export interface TerminalStats {
  chunks: number;
  escapesInjected: number;
  echoedWrites: number;
  /** Output chunks whose decoding produced U+FFFD (a character cut in two). */
  corruptedChunks: number;
}

const ESCAPES = ['\x1b[?2004h', '\x1b[?2004l', '\x1b[0m', '\x1b]0;~/mcp-playground\x07', '\x1b[1G', '\x1b[K', '\x1b(B'];
const LF = 0x0a;
const CR = 0x0d;

/** mulberry32: small, seedable, good enough to pick chunk sizes. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Everything a test needs: the boot function to inject, and what happened. */
export function createFakeBoot(options: FakeBootOptions = {}) {
  const behaviour = options.behaviour ?? 'resolve';
  let calls = 0;
  let instance: FakeWebContainer | null = null;
  return {
    boot(): Promise<FakeWebContainer> {
      calls++;
      if (behaviour === 'never') return new Promise(() => {});
      if (behaviour !== 'resolve') return Promise.reject(new Error(behaviour.reject));
      // Like the real API, a second boot while one instance exists fails.
      if (instance) return Promise.reject(new Error('Only a single WebContainer instance can be booted'));
      instance = new FakeWebContainer(options.terminal ?? {});
      return Promise.resolve(instance);
    },
    get calls(): number {
      return calls;
    },
    get instance(): FakeWebContainer | null {
      return instance;
    },
    async teardown(): Promise<void> {
      await instance?.teardown();
    },
  };
}

export class FakeWebContainer implements WebContainerLike {
  readonly processes: FakeProcess[] = [];
  mountCalls = 0;
  private dir: string | null = null;
  private spawnCount = 0;

  constructor(private readonly terminal: FakeTerminalOptions) {}

  /** The temp directory standing in for the WebContainer's working directory. */
  get workdir(): string | null {
    return this.dir;
  }

  async mount(tree: FileSystemTree | MountTree): Promise<void> {
    this.mountCalls++;
    this.dir ??= await mkdtemp(join(tmpdir(), 'fake-webcontainer-'));
    await writeTree(this.dir, tree as FileSystemTree);
  }

  async spawn(command: string, args: string[], _options?: SpawnOptionsLike): Promise<WebContainerProcessLike> {
    this.dir ??= await mkdtemp(join(tmpdir(), 'fake-webcontainer-'));
    // Each process gets its own seed, so two servers in one test are not chunked identically.
    const seed = (this.terminal.seed ?? 1) + this.spawnCount++ * 7919;
    const spawned = await FakeProcess.start(command, args, this.dir, { ...this.terminal, seed });
    this.processes.push(spawned);
    return spawned;
  }

  async teardown(): Promise<void> {
    for (const spawned of this.processes) spawned.kill();
    await Promise.all(this.processes.map((spawned) => spawned.exit));
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

async function writeTree(dir: string, tree: FileSystemTree): Promise<void> {
  for (const [name, node] of Object.entries(tree)) {
    const path = join(dir, name);
    if ('directory' in node) {
      await mkdir(path, { recursive: true });
      await writeTree(path, node.directory);
    } else if ('file' in node && 'contents' in node.file) {
      await writeFile(path, node.file.contents);
    }
  }
}

export class FakeProcess implements WebContainerProcessLike {
  readonly output: ReadableStream<string>;
  readonly input: WritableStream<string>;
  readonly exit: Promise<number>;
  /** Every string written to `input`, as written. */
  readonly typed: string[] = [];
  readonly stats: TerminalStats = { chunks: 0, escapesInjected: 0, echoedWrites: 0, corruptedChunks: 0 };
  private controller!: ReadableStreamDefaultController<string>;
  private readonly random: () => number;
  private atLineStart = true;
  private readonly pendingEcho: string[] = [];
  private outputClosed = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams | null,
    private readonly options: FakeTerminalOptions,
  ) {
    this.random = seededRandom(options.seed ?? 1);
    this.output = new ReadableStream<string>({ start: (controller) => void (this.controller = controller) });
    this.input = new WritableStream<string>({ write: (text) => this.type(text) });
    this.exit = new Promise<number>((resolve) => {
      if (!child) {
        resolve(127);
        return;
      }
      child.on('close', (code, signal) => {
        this.closeOutput();
        resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0));
      });
    });
  }

  static async start(command: string, args: string[], cwd: string, options: FakeTerminalOptions): Promise<FakeProcess> {
    if (command !== 'node') {
      // The real container runs commands through its shell, which says this and exits 127.
      const missing = new FakeProcess(null, options);
      missing.print(new TextEncoder().encode(`jsh: command not found: ${command}\n`));
      missing.closeOutput();
      return missing;
    }
    // detached: the process leads its own group, so kill() takes the tap AND its server down,
    // as tearing down a container process would.
    const child = spawnChild(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    const fake = new FakeProcess(child, options);
    child.stdin.on('error', () => {}); // writing to a process that already left: the terminal shrugs
    child.stdout.on('data', (chunk: Buffer) => fake.print(chunk));
    child.stderr.on('data', (chunk: Buffer) => fake.print(chunk));
    return fake;
  }

  kill(): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.child?.exitCode !== null || this.child.signalCode !== null) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** What the process printed, through the terminal: CRLF, re-chunked, decoded chunk by chunk. */
  private print(bytes: Uint8Array): void {
    const translated: number[] = [];
    for (const byte of bytes) {
      if (byte === LF) translated.push(CR);
      translated.push(byte);
    }
    const all = Uint8Array.from(translated);
    const maxChunk = Math.max(1, this.options.maxChunk ?? 16);
    for (let at = 0; at < all.length; ) {
      const size = 1 + Math.floor(this.random() * maxChunk);
      const chunk = all.subarray(at, at + size);
      at += chunk.length;
      if (this.random() < (this.options.escapeRate ?? 0.05)) {
        this.emit(ESCAPES[Math.floor(this.random() * ESCAPES.length)] as string);
        this.stats.escapesInjected++;
      }
      // A fresh, non-streaming decoder per chunk: exactly what corrupts split characters.
      const text = new TextDecoder().decode(chunk);
      if (text.includes('\uFFFD')) this.stats.corruptedChunks++;
      this.emit(text);
      this.stats.chunks++;
      this.atLineStart = chunk[chunk.length - 1] === LF;
      // Echo lands between the process's writes, never inside a line it is still printing.
      if (this.atLineStart) this.flushEcho();
    }
  }

  private type(text: string): void {
    this.typed.push(text);
    const delivered = text.replace(/\r/g, '\n');
    const child = this.child;
    if (child && child.stdin.writable) child.stdin.write(delivered);
    if (this.options.echo ?? true) {
      this.pendingEcho.push(delivered.replace(/\n/g, '\r\n'));
      this.stats.echoedWrites++;
      if (this.atLineStart) this.flushEcho();
    }
  }

  private flushEcho(): void {
    for (const text of this.pendingEcho.splice(0)) this.emit(text);
  }

  private emit(text: string): void {
    if (!this.outputClosed) this.controller.enqueue(text);
  }

  private closeOutput(): void {
    if (this.outputClosed) return;
    this.flushEcho();
    this.outputClosed = true;
    this.controller.close();
  }
}
