// A very small Chrome DevTools Protocol driver for the hosts benchmark: launch Chromium with the
// e2e tests' flags, attach to the page it opened, evaluate expressions in it, close it.
//
// Why not playwright-core, as the e2e tests use: Playwright enables the CDP Network domain on
// every page, so Chromium reports every WebSocket frame to the driver, and the driver here is the
// same Node process that runs the bridge. Measured on this project's bridge row, interleaved runs
// of the same page: +0.45 to +0.7 ms p50 under Playwright, 7 pairs out of 7. No learner's browser
// pays that, so the benchmark must not either. This driver enables no domain at all: it only
// sends Target.* and Runtime.evaluate over --remote-debugging-pipe.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/chromium.ts';

const CLOSE_GRACE_MS = 3_000;
const PAGE_POLL_MS = 50;

export interface CdpPage {
  /** Evaluate `expression` in the page, await it if it is a promise, and return its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Poll `expression` until it is true, or fail after `timeoutMs`. */
  waitFor(expression: string, timeoutMs: number): Promise<void>;
  /** Close the browser, wait for it to exit, and remove its profile. */
  close(): Promise<void>;
}

interface CdpReply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** Launch Chromium on `url` and attach to that page. */
export async function openChromiumPage(url: string, timeoutMs: number): Promise<CdpPage> {
  const profile = await mkdtemp(join(tmpdir(), 'mcp-playground-bench-chromium-'));
  // fd 3 carries commands to Chromium, fd 4 its replies: each message is JSON ended by a NUL byte.
  const chromium = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, '--remote-debugging-pipe', `--user-data-dir=${profile}`, url], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  chromium.stderr?.setEncoding('utf8');
  chromium.stderr?.on('data', (text: string) => stderr.push(text));
  const exited = new Promise<void>((resolve) => chromium.once('exit', () => resolve()));
  const connection = new CdpConnection(chromium.stdio[3] as Writable, chromium.stdio[4] as Readable, () => stderr.join('').slice(-2000));
  chromium.once('error', (error) => connection.fail(`could not start ${CHROMIUM_PATH}: ${error.message}`));
  chromium.once('exit', (code, signal) => connection.fail(`Chromium exited (${signal ?? `code ${code}`})`));

  const close = async (): Promise<void> => {
    connection.send('Browser.close').catch(() => {});
    const timer = setTimeout(() => chromium.kill('SIGKILL'), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(timer);
    await rm(profile, { recursive: true, force: true });
  };

  try {
    const sessionId = await attachToPage(connection, url, timeoutMs);
    const evaluate = async <T>(expression: string): Promise<T> => {
      const result = await connection.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      const exception = result.exceptionDetails as { exception?: { description?: string }; text?: string } | undefined;
      if (exception) throw new Error(exception.exception?.description ?? exception.text ?? 'the page threw');
      return (result.result as { value?: T }).value as T;
    };
    return {
      evaluate,
      async waitFor(expression, waitMs) {
        const deadline = Date.now() + waitMs;
        for (;;) {
          let last: unknown;
          try {
            if (await evaluate<boolean>(expression)) return;
          } catch (error) {
            // Right after attaching, the page may have no execution context yet ("Cannot find
            // default execution context"): that is "not ready", like false.
            last = error;
          }
          if (Date.now() > deadline) {
            const why = last instanceof Error ? `: ${last.message}` : '';
            throw new Error(`the page did not get ready within ${waitMs} ms (${expression})${why}`);
          }
          await delay(PAGE_POLL_MS);
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function attachToPage(connection: CdpConnection, url: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { targetInfos } = (await connection.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
    const page = targetInfos.find((target) => target.type === 'page' && target.url.startsWith(url));
    if (page) {
      const { sessionId } = (await connection.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as { sessionId: string };
      return sessionId;
    }
    if (Date.now() > deadline) throw new Error(`Chromium opened no page at ${url} within ${timeoutMs} ms`);
    await delay(PAGE_POLL_MS);
  }
}

class CdpConnection {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  private failure: string | null = null;
  private buffered = '';

  constructor(
    private readonly commands: Writable,
    replies: Readable,
    private readonly browserLog: () => string,
  ) {
    commands.on('error', () => {}); // a closed pipe shows up as the exit, reported by fail()
    replies.setEncoding('utf8');
    replies.on('data', (text: string) => this.receive(text));
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.failure !== null) return Promise.reject(new Error(this.failure));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.commands.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  fail(reason: string): void {
    if (this.failure !== null) return;
    const log = this.browserLog();
    this.failure = log ? `${reason}\n${log}` : reason;
    for (const waiter of this.waiting.values()) waiter.reject(new Error(this.failure));
    this.waiting.clear();
  }

  private receive(text: string): void {
    const messages = (this.buffered + text).split('\0');
    this.buffered = messages.pop() ?? '';
    for (const message of messages) {
      const reply = JSON.parse(message) as CdpReply;
      // Events have no id; with no domain enabled there are only a few, and none matter here.
      if (reply.id === undefined) continue;
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error) waiter?.reject(new Error(reply.error.message));
      else waiter?.resolve(reply.result ?? {});
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
