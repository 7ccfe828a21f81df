// Where the CPU time of a stretch of work went, process by process and thread by thread, from
// Linux's own accounting (/proc/<pid>/task/<tid>/schedstat: nanoseconds each thread ran). The
// hosts benchmark wraps two untimed bridge sessions in it, a short and a long one, so "where the
// bridge's round trip goes" is a measurement, not a guess: the page's main thread, Chromium's
// network and IO threads, the bridge (this Node process) and the echo server, each in
// microseconds of CPU per call.
//
// Chromium's threads are found by their process's command line. The echo server exits at the end
// of the stretch, so a watcher reads its threads every WATCH_MS while it lives and keeps the last
// reading (its own shutdown, after the calls, is the part that can be missed). Elsewhere than
// Linux there is no /proc: snapshot() then returns null and nothing is reported.

import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface CpuSnapshot {
  /** Nanoseconds per thread, keyed "pid/tid", with the group it counts in. */
  threads: Map<string, { group: string; ns: number }>;
}

export type CpuShares = { group: string; microsPerCall: number }[];

const WATCH_MS = 5;

/** The group a thread counts in, or null for threads of no interest. Names are /proc's comm: 15 characters at most. */
function groupOf(pid: number, command: string, thread: string): string | null {
  if (pid === process.pid) return thread === 'node' || thread === 'MainThread' ? 'bridge: its Node main thread' : 'bridge: Node\'s helper threads (GC, libuv)';
  if (!command.includes('chromium')) return null;
  const type = /--type=(\S+)/.exec(command)?.[1];
  if (type === 'renderer') return thread.startsWith('Chrome_ChildIOT') ? 'Chromium renderer: IO thread' : thread.startsWith('chromium') ? 'Chromium renderer: page main thread' : 'Chromium renderer: other threads';
  if (type === 'utility' && command.includes('NetworkService')) return 'Chromium network service';
  return 'Chromium: other processes';
}

export function snapshot(): CpuSnapshot | null {
  if (!existsSync('/proc/self/stat')) return null;
  const threads = new Map<string, { group: string; ns: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (pid !== process.pid && !command.includes('chromium')) continue;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const group = groupOf(pid, command, name);
        if (group === null) continue;
        threads.set(`${pid}/${tid}`, { group, ns: Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) });
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return { threads };
}

/** Nanoseconds every thread of `pid` has run, or null once it is gone. */
function processNs(pid: string): number | null {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return total;
  } catch {
    return null;
  }
}

/**
 * Watch this process's child whose command line contains `marker` (one that starts after the call
 * too): stop() gives the CPU it had used at the last reading, in nanoseconds (0 if none was seen).
 */
export function watchChild(marker: string): { stop(): number } {
  let pid: string | null = null;
  let last = 0;
  const read = () => {
    if (pid === null) {
      pid = readdirSync('/proc').find((entry) => /^\d+$/.test(entry) && isChildWith(entry, marker)) ?? null;
      if (pid === null) return;
    }
    const ns = processNs(pid);
    if (ns !== null) last = ns;
  };
  const timer = existsSync('/proc/self/stat') ? setInterval(read, WATCH_MS) : null;
  return {
    stop() {
      if (timer) clearInterval(timer);
      return last;
    },
  };
}

function isChildWith(pid: string, marker: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

/** CPU (ns) by group between two snapshots, with other groups' totals (ns) added. */
export function totalsBetween(before: CpuSnapshot, after: CpuSnapshot, extra: Record<string, number> = {}): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [key, { group, ns }] of after.threads) {
    const delta = ns - (before.threads.get(key)?.ns ?? 0);
    if (delta > 0) totals.set(group, (totals.get(group) ?? 0) + delta);
  }
  for (const [group, ns] of Object.entries(extra)) totals.set(group, (totals.get(group) ?? 0) + ns);
  return totals;
}

/**
 * CPU per call, by group, largest first: the difference between a short session and a long one,
 * divided by the calls the long one made beyond the short one. Whatever both sessions spend once
 * (starting the server, connecting, stopping) cancels out.
 */
export function perCallShares(short: Map<string, number>, long: Map<string, number>, extraCalls: number): CpuShares {
  return [...long]
    .map(([group, ns]) => ({ group, microsPerCall: (ns - (short.get(group) ?? 0)) / 1000 / extraCalls }))
    .filter((share) => share.microsPerCall > 0)
    .sort((a, b) => b.microsPerCall - a.microsPerCall);
}
