// Live-host round trips: how long one echo tools/call takes from the client's send to its answer,
// through every host that runs here, all in one run. The baseline is the official SDK client over
// plain stdio to the same echo server; every other host is reported as a multiple of its p50.
//
//   sdk-stdio        SDK Client + StdioClientTransport  →  echo-server.mjs                (baseline)
//   client-stdio     our McpClient over the child's pipes  →  echo-server.mjs
//   tap-node         our McpClient, tap lines over the tap's pipes  →  tap.mjs  →  echo-server.mjs
//   bridge-chromium  page: McpClient, bridge host  →  WebSocket  →  bridge (tap code in-process)  →  echo-server.mjs
//   worker-chromium  page: McpClient, worker host  →  postMessage  →  the echo server in a Web Worker
//
// Every call is `echo` with the same text, ndjson framing, one call in flight at a time. One
// reference row is not a host: the same page's WebSocket to a bare echo socket (no bridge, no tap,
// no MCP), the floor under the bridge row.

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNodePrograms } from '../scripts/build-node-programs.ts';
import { CHROMIUM_PATH } from '../tests/e2e/chromium.ts';
import { buildBenchSite, measureBrowserHosts } from './hosts-browser.ts';
import { measureNodeHosts } from './hosts-node.ts';
import { DEFAULT_PLAN, PRIMING_PLAN, type CallPlan } from './hosts-timing.ts';
import type { CpuShares } from './thread-cpu.ts';
import { formatTable, median, percentile, ratio, verdict } from './report.ts';

export type HostId = 'sdk-stdio' | 'client-stdio' | 'tap-node' | 'bridge-chromium' | 'worker-chromium';
export type ReferenceId = 'websocket-echo-chromium' | 'bare-relay-chromium' | 'bridge-server-span';

export interface HostRow<Id extends string = HostId> {
  host: Id;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** p50 divided by the SDK-over-stdio p50 of the same run. */
  vsSdkStdioP50: number;
}

export interface HostsResult {
  rows: HostRow[];
  /** Measurements that are not hosts but explain them (the WebSocket floor). */
  references: HostRow<ReferenceId>[];
  /** Hosts that could not run on this machine, with the reason (never a failure: a missing browser). */
  skipped: string[];
  /** CPU per bridge call by process and thread (Linux), from a separate run of `calls` calls. */
  bridgeCpu?: { calls: number; shares: CpuShares };
}

const HOST_LABELS: Record<HostId | ReferenceId, string> = {
  'sdk-stdio': 'official SDK Client over stdio (baseline)',
  'client-stdio': 'our McpClient over stdio',
  'tap-node': 'our McpClient through the tap, from Node',
  'bridge-chromium': 'bridge host, from Chromium',
  'worker-chromium': 'worker host, in Chromium',
  'websocket-echo-chromium': '(floor) Chromium WebSocket to a bare echo socket',
  'bare-relay-chromium': '(floor) Chromium, bare byte relay to the echo server',
  'bridge-server-span': '(in the bridge row) echo server, c2s→s2c as its tap timed it',
};
const HOST_ORDER: readonly HostId[] = ['sdk-stdio', 'client-stdio', 'tap-node', 'bridge-chromium', 'worker-chromium'];

export const BRIDGE_GOAL_VS_SDK_STDIO = 3;
export const WORKER_GOAL_P50_MS = 2;

/** `priming` is the untimed session each host gets first (see PRIMING_PLAN). */
export async function runHostsBench(plan: CallPlan = DEFAULT_PLAN, priming: CallPlan = PRIMING_PLAN): Promise<HostsResult> {
  // One private directory: the programs as the current sources build them (so a concurrent
  // rebuild of public/generated cannot change them mid-run), and the Chromium bench site around them.
  const siteDir = await mkdtemp(join(tmpdir(), 'mcp-playground-bench-hosts-'));
  try {
    const programsDir = join(siteDir, 'generated');
    await buildNodePrograms(programsDir);
    const samples: Partial<Record<HostId, number[]>> = {};
    await measureNodeHosts(programsDir, priming); // untimed: see PRIMING_PLAN
    const node = await measureNodeHosts(programsDir, plan);
    samples['sdk-stdio'] = node.sdkStdio;
    samples['client-stdio'] = node.clientStdio;
    samples['tap-node'] = node.tapNode;

    const skipped: string[] = [];
    let floor: number[] | undefined;
    let bareRelay: number[] | undefined;
    let bridgeServer: number[] | undefined;
    let bridgeCpu: HostsResult['bridgeCpu'];
    if (existsSync(CHROMIUM_PATH)) {
      await buildBenchSite(siteDir);
      const browser = await measureBrowserHosts(siteDir, plan, priming);
      samples['bridge-chromium'] = browser.bridge;
      samples['worker-chromium'] = browser.worker;
      floor = browser.webSocketEcho;
      bareRelay = browser.bareRelay;
      bridgeServer = browser.bridgeServer;
      if (browser.bridgeCpu) bridgeCpu = { calls: browser.profileCalls, shares: browser.bridgeCpu };
    } else {
      skipped.push(`bridge-chromium, worker-chromium: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    }
    const baseline = median(node.sdkStdio);
    const rows = HOST_ORDER.flatMap((host) => {
      const times = samples[host];
      return times ? [toRow(host, times, baseline)] : [];
    });
    const references = [
      ...(floor ? [toRow('websocket-echo-chromium', floor, baseline)] : []),
      ...(bareRelay ? [toRow('bare-relay-chromium', bareRelay, baseline)] : []),
      ...(bridgeServer?.length ? [toRow('bridge-server-span', bridgeServer, baseline)] : []),
    ];
    return { rows, references, skipped, ...(bridgeCpu ? { bridgeCpu } : {}) };
  } finally {
    await rm(siteDir, { recursive: true, force: true });
  }
}

function toRow<Id extends string>(host: Id, times: number[], baselineP50: number): HostRow<Id> {
  const p50Ms = median(times);
  const meanMs = times.reduce((sum, ms) => sum + ms, 0) / times.length;
  return { host, p50Ms, p99Ms: percentile(times, 99), meanMs, vsSdkStdioP50: p50Ms / baselineP50 };
}

export interface HostGoal {
  description: string;
  /** null when the host it is about did not run. */
  met: boolean | null;
}

export function hostGoals(rows: readonly HostRow[]): HostGoal[] {
  const bridge = rows.find((row) => row.host === 'bridge-chromium');
  const worker = rows.find((row) => row.host === 'worker-chromium');
  return [
    { description: `bridge p50 within ${BRIDGE_GOAL_VS_SDK_STDIO}× the SDK-over-stdio p50`, met: bridge ? bridge.vsSdkStdioP50 <= BRIDGE_GOAL_VS_SDK_STDIO : null },
    { description: `worker p50 under ${WORKER_GOAL_P50_MS} ms`, met: worker ? worker.p50Ms < WORKER_GOAL_P50_MS : null },
  ];
}

/** The section as printed by `npm run bench`. */
export function formatHostsReport(result: HostsResult, plan: CallPlan = DEFAULT_PLAN, judged = true): string {
  const table = formatTable(
    ['host', 'p50 ms', 'p99 ms', 'mean ms', '× SDK stdio p50'],
    [...result.rows, ...result.references].map((row) => [HOST_LABELS[row.host], ms(row.p50Ms), ms(row.p99Ms), ms(row.meanMs), ratio(row.vsSdkStdioP50)]),
  );
  const goals = hostGoals(result.rows).map((goal) => `goal: ${goal.description}: ${goal.met === null ? 'not run' : verdict(goal.met, judged)}`);
  const skipped = result.skipped.map((line) => `skipped: ${line}`);
  return [`(${plan.calls} calls after ${plan.warmUp} warm-up, one at a time, ndjson)`, table, ...goals, ...(judged ? floorNotes(result) : []), ...skipped].join('\n');
}

// Where the bridge row's time goes, measured in the same run: Chromium's bare WebSocket round trip
// (the floor row), the echo server's own time as the bridge's tap saw it (c2s → s2c, in the tap's
// 0.1 ms steps), and — the profile — the CPU each process and thread spent per call on a separate
// bridge run (thread-cpu.ts: Linux's per-thread accounting). One call at a time, so the round trip
// is the sum of the work on its path plus each hop's wake-up: the CPU table is where it goes.
function floorNotes(result: HostsResult): string[] {
  const bridge = result.rows.find((row) => row.host === 'bridge-chromium');
  const floor = result.references.find((row) => row.host === 'websocket-echo-chromium');
  const server = result.references.find((row) => row.host === 'bridge-server-span');
  const relay = result.references.find((row) => row.host === 'bare-relay-chromium');
  if (!bridge || !floor) return [];
  const notes = [
    `the bridge p50 (${ms(bridge.p50Ms)} ms): Chromium's bare WebSocket round trip ${ms(floor.p50Ms)} ms (the floor row)` +
      (server ? `, the echo server as the bridge's tap timed it ${ms(server.p50Ms)} ms` : '') +
      `, the rest ${ms(bridge.p50Ms - floor.p50Ms - (server?.p50Ms ?? 0))} ms`,
  ];
  if (relay) {
    notes.push(
      `a bare byte relay to the same echo server (no tap, no events, the least client) takes ${ms(relay.p50Ms)} ms, ${ratio(relay.vsSdkStdioP50)} the SDK over stdio: ` +
        `what any bridge costs on this machine; the tap, its events and our client add ${ms(bridge.p50Ms - relay.p50Ms)} ms`,
    );
  }
  const cpu = result.bridgeCpu;
  if (cpu) {
    const total = cpu.shares.reduce((sum, share) => sum + share.microsPerCall, 0);
    notes.push(
      `where it goes (CPU per bridge call, ${cpu.calls} calls, every process and thread on the path; ${Math.round(total)} µs in all):`,
      formatTable(
        ['process / thread', 'µs per call', 'share'],
        cpu.shares.map((share) => [share.group, share.microsPerCall.toFixed(1), `${Math.round((100 * share.microsPerCall) / total)} %`]),
      ),
    );
  }
  return notes;
}

function ms(value: number): string {
  return value.toFixed(3);
}
