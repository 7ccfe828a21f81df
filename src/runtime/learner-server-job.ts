// What it takes to run the learner's exercise-4 server: their source, checked, plus the framing and
// faults of the session around it. The bridge writes it as a "job file" the shipped runner
// (learner-server.mjs) reads, the WebContainer host mounts it, the worker gets it as a message.
// One checker for all of them, so a source one host accepts no other host refuses.
// Pure (no node:*): the page imports it too.

import { FAULT_NAMES, type FaultName } from '../protocol/faults.ts';
import { FRAMING_NAMES, type FramingName } from '../protocol/framing/types.ts';
import { parseEchoServerArgs } from './echo-server-args.ts';
import type { LearnerServerSource } from './host.ts';

/** Largest learner source accepted, in UTF-8 bytes. The reference server.ts is about 10 KiB. */
export const LEARNER_SOURCE_MAX_BYTES = 256 * 1024;
/** The file name as the editor shows it: no folders, no surprises in messages and stack traces. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.(?:ts|mts|js|mjs)$/;
const MODULE_ID = /^@protocol\/[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*$/;

/** The job file's version: a runner refuses a job from a bridge that speaks another one. */
export const LEARNER_JOB_VERSION = 1;

export interface LearnerServerJob {
  framing: FramingName;
  faults: FaultName[];
  source: LearnerServerSource;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Check a learner source that arrived from a page. Never throws. */
export function checkLearnerServerSource(value: unknown): Checked<LearnerServerSource> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('learnerServer must be an object { code, file, moduleId? }');
  const { code, file, moduleId, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return refuse(`unknown field(s) in learnerServer: ${extra.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`);
  if (typeof code !== 'string') return refuse('learnerServer.code must be the source text');
  const bytes = utf8Length(code);
  if (bytes > LEARNER_SOURCE_MAX_BYTES) {
    return refuse(`your server's source is ${Math.ceil(bytes / 1024)} KiB; the limit is ${LEARNER_SOURCE_MAX_BYTES / 1024} KiB`);
  }
  if (typeof file !== 'string' || !FILE_NAME.test(file)) return refuse('learnerServer.file must be a plain file name such as server.ts');
  if (moduleId !== undefined && (typeof moduleId !== 'string' || !MODULE_ID.test(moduleId))) {
    return refuse("learnerServer.moduleId must look like '@protocol/server'");
  }
  return { ok: true, value: moduleId === undefined ? { code, file } : { code, file, moduleId } };
}

/** Check the session options the same way the echo server's own argument parser would. */
export function checkSessionOptions(framing: unknown, faults: unknown): Checked<{ framing: FramingName; faults: FaultName[] }> {
  if (typeof framing !== 'string' || !(FRAMING_NAMES as readonly string[]).includes(framing)) return refuse(`unknown framing; expected one of ${FRAMING_NAMES.join(', ')}`);
  if (!Array.isArray(faults) || !faults.every((fault) => typeof fault === 'string' && (FAULT_NAMES as readonly string[]).includes(fault))) {
    return refuse(`faults must be a list of ${FAULT_NAMES.join(', ')}`);
  }
  const parsed = parseEchoServerArgs(sessionArguments(framing as FramingName, faults as FaultName[]));
  if (parsed.kind !== 'run') return refuse(parsed.kind === 'usage-error' ? parsed.message : 'invalid options');
  return { ok: true, value: { framing: parsed.options.framing, faults: parsed.options.faults } };
}

/** The echo server's command-line flags for a framing and faults. */
export function sessionArguments(framing: FramingName, faults: readonly FaultName[]): string[] {
  return [`--framing=${framing}`, ...faults.map((fault) => `--fault=${fault}`)];
}

export function encodeLearnerServerJob(job: LearnerServerJob): string {
  return JSON.stringify({ version: LEARNER_JOB_VERSION, framing: job.framing, faults: job.faults, source: job.source });
}

/** Read a job file's text; every field is checked again, whoever wrote it. Never throws. */
export function parseLearnerServerJob(text: string): Checked<LearnerServerJob> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('the job file is not JSON');
  }
  if (typeof value !== 'object' || value === null) return refuse('the job file is not a JSON object');
  const job = value as Record<string, unknown>;
  if (job.version !== LEARNER_JOB_VERSION) return refuse(`the job file has version ${JSON.stringify(job.version)}; this runner reads version ${LEARNER_JOB_VERSION}`);
  const options = checkSessionOptions(job.framing, job.faults);
  if (!options.ok) return options;
  const source = checkLearnerServerSource(job.source);
  if (!source.ok) return source;
  return { ok: true, value: { ...options.value, source: source.value } };
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function refuse<T>(reason: string): Checked<T> {
  return { ok: false, reason };
}
