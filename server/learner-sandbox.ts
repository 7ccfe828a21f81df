// The OS-level sandbox the bridge runs learner code in (learner-server.mjs: the learner's
// exercise-4 server). Node's permission model alone only stops file access, child processes,
// workers and addons; the code could still read the bridge's environment, open TCP/UDP/Unix
// sockets, signal any process of the user and hold all the memory it likes. So on Linux the
// runner starts inside bubblewrap (`bwrap`, Debian package bubblewrap) under prlimit (util-linux):
//
//   prlimit --as --cpu --core=0 --fsize --   address space, CPU seconds, no core or big files
//   bwrap --unshare-all                      new user, pid, net, ipc, uts, cgroup namespaces: no
//                                            network (not even loopback), no abstract Unix
//                                            sockets, only its own processes to signal
//         --die-with-parent                  gone when the bridge is gone, however it died.
//                                            NOT --new-session: bwrap's child stays in the
//                                            process group the bridge made (spawn detached, so
//                                            setsid: no controlling terminal to push keystrokes
//                                            into either), so the group kill reaches it even in
//                                            the first milliseconds, before bwrap has armed
//                                            --die-with-parent (a race that left sandboxes
//                                            running when a page left at once)
//         --cap-drop ALL --clearenv          no capabilities; an explicit, minimal environment
//         --ro-bind /usr (+ the Node binary) the only files: read-only system libraries,
//         --ro-bind runner /sandbox/...      the runner, and
//         --tmpfs /job + --ro-bind-data      a private job folder that lives only inside the
//                                            sandbox (the job comes through fd 4, never a host
//                                            file) and is the working directory, read-only
//   node --experimental-permission          reads: the runner and the job only; no writes,
//        --no-addons --max-old-space-size   child processes, workers or addons; a V8 heap cap
//
// Plus the heartbeat: the runner writes one byte to fd 3 every LEARNER_SERVER_HEARTBEAT_MS, from
// its own timer, before and while the learner's code runs. A loop that never yields stops it, and
// the bridge (bridge-session.ts) kills the process group after LEARNER_SERVER_HARD_LIMIT_MS of
// silence, with the same stderr line the worker host shows. The CPU limit is the backstop for code
// that forges heartbeats from inside its loop.
//
// Without bwrap and prlimit (or where they do not work, e.g. no user namespaces) there is no
// sandbox, and the bridge does not run learner code at all: detectLearnerSandbox says why.

import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { permissionFlags } from './learner-job-file.ts';

/** Where the sandbox puts the runner, the job, and which fds carry what. */
export const SANDBOX_RUNNER_PATH = '/sandbox/learner-server.mjs';
export const SANDBOX_JOB_DIR = '/job';
export const SANDBOX_JOB_PATH = `${SANDBOX_JOB_DIR}/job.json`;
/** The runner's heartbeat goes out on this fd (the bridge reads it); the job comes in on JOB_FD. */
export const HEARTBEAT_FD = 3;
export const JOB_FD = 4;
/** The runner learns its heartbeat fd from this variable (one of the few it gets). */
export const HEARTBEAT_FD_VARIABLE = 'LEARNER_SERVER_HEARTBEAT_FD';

export interface SandboxLimits {
  /** V8's old-space limit, in MiB: a heap that grows past it ends the process. */
  heapMiB: number;
  /** The whole process's address space (RLIMIT_AS), in bytes: Buffers and ArrayBuffers included. */
  addressSpaceBytes: number;
  /** CPU seconds over the process's life (RLIMIT_CPU): the backstop behind the heartbeat. */
  cpuSeconds: number;
  /** Largest file the process may write (RLIMIT_FSIZE); only bwrap writes one, the job, before the runner starts. */
  fileSizeBytes: number;
}

/** The sandbox runs the bridge's own Node (process.execPath), so its version sets the floor. */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = {
  heapMiB: 128,
  // Node reserves address space just to start (V8's code range and heap reservations, thread
  // stacks): about 650 MiB on Node 20, about 1.1 GiB on Node 24, which does not even start under a
  // 1 GiB cap. The cap leaves the learner's server roughly 350-400 MiB of Buffers besides its
  // 128 MiB heap on either (measured: tests/security/learner-sandbox.test.ts).
  addressSpaceBytes: (NODE_MAJOR >= 22 ? 1792 : 1024) * 1024 * 1024,
  cpuSeconds: 60,
  // A job is at most 256 KiB of source, which JSON escaping can grow up to six times.
  fileSizeBytes: 4 * 1024 * 1024,
};

/** The environment the learner's process gets: nothing of the bridge's. */
export const SANDBOX_ENVIRONMENT: Readonly<Record<string, string>> = {
  LANG: 'C.UTF-8',
  // One malloc arena instead of one per thread (64 MiB of address space each): under the address
  // space cap that is the difference between ~110 and ~370 MiB of Buffers the server can hold.
  MALLOC_ARENA_MAX: '1',
  [HEARTBEAT_FD_VARIABLE]: String(HEARTBEAT_FD),
};

export interface LearnerSandbox {
  readonly bwrap: string;
  readonly prlimit: string;
  readonly limits: Readonly<SandboxLimits>;
  /** The argv that runs `runnerPath` in the sandbox on the job read from fd JOB_FD. */
  argv(runnerPath: string): string[];
}

export type SandboxDetection = { ok: true; sandbox: LearnerSandbox } | { ok: false; reason: string };

export function createLearnerSandbox(tools: { bwrap: string; prlimit: string }, limits: Readonly<SandboxLimits> = DEFAULT_SANDBOX_LIMITS, nodePath = process.execPath): LearnerSandbox {
  const node = realpathSync(nodePath);
  return {
    bwrap: tools.bwrap,
    prlimit: tools.prlimit,
    limits,
    argv(runnerPath) {
      const flags = permissionFlags([SANDBOX_RUNNER_PATH, SANDBOX_JOB_PATH]);
      if (!flags) throw new Error(`Node ${process.versions.node} has no permission model`);
      return [
        ...prlimitArgv(tools.prlimit, limits),
        ...bwrapArgv(tools.bwrap, node, [
          '--ro-bind',
          realpathSync(runnerPath),
          SANDBOX_RUNNER_PATH,
          '--tmpfs',
          SANDBOX_JOB_DIR,
          '--ro-bind-data',
          String(JOB_FD),
          SANDBOX_JOB_PATH,
          '--remount-ro',
          SANDBOX_JOB_DIR,
          '--chdir',
          SANDBOX_JOB_DIR,
        ]),
        node,
        ...flags,
        '--no-addons',
        `--max-old-space-size=${limits.heapMiB}`,
        // Nothing on the learner's stderr that the learner did not write.
        '--no-deprecation',
        SANDBOX_RUNNER_PATH,
        SANDBOX_JOB_PATH,
      ];
    },
  };
}

function prlimitArgv(prlimit: string, limits: Readonly<SandboxLimits>): string[] {
  const cpu = limits.cpuSeconds;
  return [prlimit, `--as=${limits.addressSpaceBytes}`, `--cpu=${cpu}:${cpu + 1}`, '--core=0', `--fsize=${limits.fileSizeBytes}`, '--'];
}

/** bwrap up to and including `--`, with `extra` mounts; the command follows. */
function bwrapArgv(bwrap: string, node: string, extra: readonly string[]): string[] {
  const args = [bwrap, '--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--clearenv'];
  for (const [name, value] of Object.entries(SANDBOX_ENVIRONMENT)) args.push('--setenv', name, value);
  args.push('--hostname', 'sandbox', '--ro-bind', '/usr', '/usr');
  // Debian and most distributions have merged /usr (/lib -> usr/lib); older ones have real folders.
  for (const top of ['/lib', '/lib64', '/lib32', '/bin']) {
    if (!existsSync(top)) continue;
    const info = lstatSync(top);
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else args.push('--ro-bind', top, top);
  }
  // A Node from nvm, Volta or a tarball lives outside /usr: bring just its binary.
  if (!node.startsWith('/usr/')) args.push('--ro-bind', node, node);
  args.push('--proc', '/proc', '--dev', '/dev', ...extra, '--');
  return args;
}

const SYSTEM_FOLDERS = ['/usr/bin', '/bin', '/usr/sbin'];

/** The first executable called `name` on PATH (and the usual system folders). */
export function findTool(name: string, path = process.env.PATH ?? '', systemFolders: readonly string[] = SYSTEM_FOLDERS): string | null {
  const folders = [...path.split(delimiter).filter(Boolean), ...systemFolders];
  for (const folder of folders) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export const NO_SANDBOX_INSTALL_HINT = 'install bubblewrap and util-linux (Debian/Ubuntu: sudo apt-get install bubblewrap; or run scripts/ensure-sandbox-tools.sh)';

/**
 * Is there a sandbox that works on this machine? Linux only; bwrap and prlimit must exist AND a
 * trial run of Node inside them must succeed (bwrap needs user namespaces, which some
 * containers and hardened kernels turn off).
 */
export async function detectLearnerSandbox(options: { path?: string; systemFolders?: readonly string[]; limits?: SandboxLimits; nodePath?: string } = {}): Promise<SandboxDetection> {
  if (process.platform !== 'linux') return { ok: false, reason: `no OS sandbox for learner code on ${process.platform} (the bridge uses bubblewrap, which is Linux only)` };
  const bwrap = findTool('bwrap', options.path, options.systemFolders);
  const prlimit = findTool('prlimit', options.path, options.systemFolders);
  if (!bwrap || !prlimit) return { ok: false, reason: `no ${!bwrap ? 'bwrap' : 'prlimit'} on this machine: ${NO_SANDBOX_INSTALL_HINT}` };
  const sandbox = createLearnerSandbox({ bwrap, prlimit }, options.limits, options.nodePath);
  const probe = await trialRun(sandbox);
  return probe === null ? { ok: true, sandbox } : { ok: false, reason: `bwrap is installed but cannot start a sandbox here (${probe})` };
}

/** null when Node ran inside the sandbox, otherwise what went wrong. */
function trialRun(sandbox: LearnerSandbox): Promise<string | null> {
  const argv = [...prlimitArgv(sandbox.prlimit, sandbox.limits), ...bwrapArgv(sandbox.bwrap, realpathSync(process.execPath), []), realpathSync(process.execPath), '-e', 'process.stdout.write("ok")'];
  return new Promise((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && out === 'ok' ? null : (err.trim().split('\n')[0] ?? '') || `exit code ${code}`);
    });
  });
}
