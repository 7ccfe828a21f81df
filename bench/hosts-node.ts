// The three hosts measured from Node: the official SDK client over plain stdio (the baseline every
// other host is compared with), our McpClient over the same plain stdio, and our McpClient through
// the tap, speaking the tap line protocol over the tap's own stdin/stdout (what the bridge relays,
// minus the WebSocket and the browser).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpClient } from '../src/protocol/client.ts';
import type { ByteTransport } from '../src/protocol/transport.ts';
import { TapLineSplitter } from '../src/runtime/tap-protocol.ts';
import { createTapWire, type LineChannel } from '../src/runtime/tap-wire.ts';
import { ChildTransport } from '../tests/integration/child-transport.ts';
import { timeEchoCalls, type CallPlan } from './hosts-timing.ts';

const REQUEST_TIMEOUT_MS = 10_000;
const EXIT_GRACE_MS = 2_000;
const CLIENT_INFO = { name: 'mcp-playground-bench', version: '0.1.0' };

export interface NodeHostSamples {
  sdkStdio: number[];
  clientStdio: number[];
  tapNode: number[];
}

/** `programsDir` holds the built tap.mjs and echo-server.mjs. */
export async function measureNodeHosts(programsDir: string, plan?: CallPlan): Promise<NodeHostSamples> {
  const echoServer = join(programsDir, 'echo-server.mjs');
  const tap = join(programsDir, 'tap.mjs');
  return {
    sdkStdio: await measureSdkOverStdio(echoServer, plan),
    clientStdio: await measureClientOverStdio(echoServer, plan),
    tapNode: await measureClientThroughTap(tap, echoServer, plan),
  };
}

async function measureSdkOverStdio(echoServer: string, plan?: CallPlan): Promise<number[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [echoServer, '--framing=ndjson'], stderr: 'ignore' });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport);
    return await timeEchoCalls((text) => client.callTool({ name: 'echo', arguments: { text } }, undefined, { timeout: REQUEST_TIMEOUT_MS }), () => performance.now(), plan);
  } finally {
    // The SDK's close ends stdin, then escalates to SIGTERM and SIGKILL itself.
    await client.close();
  }
}

async function measureClientOverStdio(echoServer: string, plan?: CallPlan): Promise<number[]> {
  const child = spawnNode([echoServer, '--framing=ndjson']);
  return measureOurClient(new ChildTransport(child), child, plan);
}

async function measureClientThroughTap(tap: string, echoServer: string, plan?: CallPlan): Promise<number[]> {
  const child = spawnNode([tap, '--', process.execPath, echoServer, '--framing=ndjson']);
  // The kind is only a label; 'bridge' because the bridge relays exactly these lines.
  return measureOurClient(createTapWire('bridge', tapLineChannel(child)), child, plan);
}

async function measureOurClient(transport: ByteTransport, child: ChildProcessWithoutNullStreams, plan?: CallPlan): Promise<number[]> {
  const client = new McpClient(transport, { framing: 'ndjson', clientInfo: CLIENT_INFO, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    await client.connect();
    return await timeEchoCalls((text) => client.callTool('echo', { text }), () => performance.now(), plan);
  } finally {
    client.close(); // ends the server's stdin (through the tap: an eof command)
    await exitOrKill(child);
  }
}

function spawnNode(args: string[]): ChildProcessWithoutNullStreams {
  // Its own process group, so a kill reaches the server behind a tap as well.
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  child.stdin.on('error', () => {});
  child.stderr.resume(); // the servers log to stderr; the benchmark does not read it
  return child;
}

/** The tap's pipes as a channel of lines: commands to its stdin, events from its stdout. */
function tapLineChannel(child: ChildProcessWithoutNullStreams): LineChannel {
  const lines = new TapLineSplitter();
  child.stdout.setEncoding('utf8');
  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    close: () => child.stdin.end(),
    onLine(listener) {
      const onText = (text: string) => lines.push(text).forEach(listener);
      child.stdout.on('data', onText);
      return () => child.stdout.off('data', onText);
    },
    onClose(listener) {
      const onClose = (code: number | null, signal: NodeJS.Signals | null) => listener(signal ? `tap killed by ${signal}` : `tap exited with code ${code}`);
      child.on('close', onClose);
      return () => child.off('close', onClose);
    },
  };
}

async function exitOrKill(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => killGroup(child), EXIT_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}
