// The learner's source for learner-server.mjs as a job file in a private temp directory (0700, the
// file 0600, created exclusively), whose path is the runner's only argument, and the command line
// that runs it under Node's permission model alone. The bridge no longer uses either: it runs the
// runner only in its OS sandbox and passes the job through a pipe (learner-sandbox.ts), so no
// learner source ever lands on the host's disk. They remain for running the runner by hand and in
// tests (the security tests' unsandboxed controls); permissionFlags is shared with the sandbox.

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeLearnerServerJob, type LearnerServerJob } from '../src/runtime/learner-server-job.ts';

export interface LearnerJobFile {
  /** Absolute and resolved (no symlinks), as the permission model compares paths. */
  readonly path: string;
  /** Delete the file and its directory; safe to call more than once. */
  remove(): void;
}

export function writeLearnerJobFile(job: LearnerServerJob, parentDir = tmpdir()): LearnerJobFile {
  // mkdtemp creates the directory 0700: nobody else on the machine can list or read it.
  const dir = realpathSync(mkdtempSync(join(parentDir, 'mcp-learner-server-')));
  const path = join(dir, 'job.json');
  try {
    writeFileSync(path, encodeLearnerServerJob(job), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let removed = false;
  return {
    path,
    remove() {
      if (removed) return;
      removed = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Node flags that turn the permission model on with read access to `readable` only: no writes, no
 * child processes, no workers, no native addons. null when this Node has no permission model
 * (before 20). Node 20 and 21 call it --experimental-permission; 22 and later --permission.
 */
export function permissionFlags(readable: readonly string[], nodeVersion = process.versions.node): string[] | null {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  if (major < 20) return null;
  const flags = [major >= 22 ? '--permission' : '--experimental-permission', ...readable.map((path) => `--allow-fs-read=${path}`)];
  // The "experimental feature" warning would land on the learner's stderr as if it were theirs.
  if (major >= 22 || (major === 21 && minor >= 3) || (major === 20 && minor >= 11)) flags.push('--disable-warning=ExperimentalWarning');
  return flags;
}

/** The argv that runs learner-server.mjs on a job file, under the permission model when there is one. */
export function learnerServerArgv(runnerPath: string, jobPath: string, nodePath = process.execPath, nodeVersion = process.versions.node): string[] {
  const runner = realpathSync(runnerPath);
  const flags = permissionFlags([runner, jobPath], nodeVersion) ?? [];
  return [nodePath, ...flags, runner, jobPath];
}
