import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLearnerServerJob } from '../src/runtime/learner-server-job.ts';
import { permissionFlags, writeLearnerJobFile } from './learner-job-file.ts';

describe('writeLearnerJobFile', () => {
  it('writes a private job file the runner can read back, and removes it with its directory', () => {
    const job = writeLearnerJobFile({ framing: 'ndjson', faults: [], source: { code: 'export class McpServer {}', file: 'server.ts' } });
    expect(statSync(job.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(job.path)).mode & 0o777).toBe(0o700);
    expect(parseLearnerServerJob(readFileSync(job.path, 'utf8'))).toMatchObject({ ok: true, value: { source: { file: 'server.ts' } } });
    job.remove();
    job.remove();
    expect(existsSync(dirname(job.path))).toBe(false);
  });
});

describe('permissionFlags', () => {
  it('names the permission model as each Node version calls it, with read access only to the given paths', () => {
    expect(permissionFlags(['/a', '/b'], '18.20.0')).toBeNull();
    expect(permissionFlags(['/a'], '20.5.0')).toEqual(['--experimental-permission', '--allow-fs-read=/a']);
    expect(permissionFlags(['/a'], '20.20.2')).toEqual(['--experimental-permission', '--allow-fs-read=/a', '--disable-warning=ExperimentalWarning']);
    expect(permissionFlags(['/a'], '22.12.0')).toEqual(['--permission', '--allow-fs-read=/a', '--disable-warning=ExperimentalWarning']);
    for (const flags of [permissionFlags(['/a'], '20.20.2'), permissionFlags(['/a'], '24.0.0')]) {
      expect(flags?.some((flag) => /allow-(fs-write|child-process|worker|addons|wasi)/.test(flag))).toBe(false);
    }
  });
});
