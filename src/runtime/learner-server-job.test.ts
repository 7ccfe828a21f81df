import { describe, expect, it } from 'vitest';
import { LEARNER_SOURCE_MAX_BYTES, checkLearnerServerSource, checkSessionOptions, encodeLearnerServerJob, parseLearnerServerJob } from './learner-server-job.ts';

describe('checkLearnerServerSource', () => {
  it('accepts a source with a plain file name, and an optional reference module id', () => {
    expect(checkLearnerServerSource({ code: 'x', file: 'server.ts' })).toEqual({ ok: true, value: { code: 'x', file: 'server.ts' } });
    expect(checkLearnerServerSource({ code: 'x', file: 'my_server-2.mts', moduleId: '@protocol/server' })).toMatchObject({ ok: true });
  });

  it('caps the size in UTF-8 bytes, not characters', () => {
    const cjk = '你'.repeat(Math.floor(LEARNER_SOURCE_MAX_BYTES / 3) + 1); // 3 bytes each: just over
    expect(cjk.length).toBeLessThan(LEARNER_SOURCE_MAX_BYTES);
    expect(checkLearnerServerSource({ code: cjk, file: 'server.ts' })).toEqual({ ok: false, reason: "your server's source is 257 KiB; the limit is 256 KiB" });
    expect(checkLearnerServerSource({ code: 'a'.repeat(LEARNER_SOURCE_MAX_BYTES), file: 'server.ts' }).ok).toBe(true);
  });

  it.each([
    ['a path', { code: '', file: 'src/server.ts' }],
    ['a parent path', { code: '', file: '../server.ts' }],
    ['a hidden file', { code: '', file: '.server.ts' }],
    ['another extension', { code: '', file: 'server.sh' }],
    ['a module id outside the reference', { code: '', file: 'server.ts', moduleId: '../etc' }],
    ['code that is not text', { code: 42, file: 'server.ts' }],
    ['an unknown field', { code: '', file: 'server.ts', run: 'rm -rf /' }],
    ['not an object', 'export class McpServer {}'],
  ])('refuses %s', (_name, value) => {
    expect(checkLearnerServerSource(value).ok).toBe(false);
  });
});

describe('checkSessionOptions', () => {
  it('applies the echo server rules', () => {
    expect(checkSessionOptions('ndjson', ['split-writes'])).toEqual({ ok: true, value: { framing: 'ndjson', faults: ['split-writes'] } });
    expect(checkSessionOptions('ndjson', ['char-length'])).toEqual({ ok: false, reason: '--fault=char-length only applies to --framing=content-length' });
    expect(checkSessionOptions('xml', []).ok).toBe(false);
    expect(checkSessionOptions('ndjson', ['rm -rf']).ok).toBe(false);
  });
});

describe('the job file', () => {
  it('round-trips', () => {
    const job = { framing: 'content-length' as const, faults: ['no-gate' as const], source: { code: 'export {}', file: 'server.ts', moduleId: '@protocol/server' } };
    expect(parseLearnerServerJob(encodeLearnerServerJob(job))).toEqual({ ok: true, value: job });
  });

  it('re-checks everything it reads', () => {
    expect(parseLearnerServerJob('nope').ok).toBe(false);
    expect(parseLearnerServerJob(JSON.stringify({ version: 2, framing: 'ndjson', faults: [], source: { code: '', file: 'server.ts' } }))).toMatchObject({ ok: false, reason: expect.stringContaining('version') });
    expect(parseLearnerServerJob(JSON.stringify({ version: 1, framing: 'ndjson', faults: [], source: { code: '', file: '/etc/passwd' } })).ok).toBe(false);
  });
});
