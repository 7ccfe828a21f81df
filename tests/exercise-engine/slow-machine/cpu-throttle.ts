// A machine ten times slower, made from this one: like a cgroup's cpu.max, a process group may use
// a share of one core (CPU time from /proc, Linux), and is stopped (SIGSTOP) while it is over that
// share and let run again (SIGCONT) when it is under. No CPU is burnt to do it, so the siblings on
// a shared machine are not slowed. The harness reads clocks to ration the CPU; tests that use it
// assert outcomes only.

import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // Linux's USER_HZ, the unit of the times in /proc/<pid>/stat
const CHECK_EVERY_MS = 5;

/** CPU time (user + system, its own and its reaped children's) of every process in a group, in ms. */
export function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command name (which may hold spaces, hence the last ')'): state is field 0, pgrp
      // 2, utime 11, stime 12, cutime 13, cstime 14.
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
      if (Number(fields[2]) !== pgid) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Rations the process group `pgid` (a child spawned with `detached: true`) to `share` of a core
 * from now until `until` settles; resolves once it has let the group run freely again.
 */
export async function throttleGroup(pgid: number, share: number, until: Promise<unknown>): Promise<void> {
  let running = true;
  void until.then(() => (running = false));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      running = false; // the group is gone
    }
  };
  const startCpu = groupCpuMs(pgid);
  const start = performance.now();
  let stopped = false;
  while (running) {
    const over = groupCpuMs(pgid) - startCpu > (performance.now() - start) * share;
    if (over !== stopped) {
      signal(over ? 'SIGSTOP' : 'SIGCONT');
      stopped = over;
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
  }
  if (stopped) signal('SIGCONT');
}
