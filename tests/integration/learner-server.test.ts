// The built learner-server.mjs, driven by the OFFICIAL SDK client over real pipes: with the
// reference src/protocol/server.ts as "the learner's file" it must pass everything "Check my
// server" asks; a broken file must fail to load with one clear line and exit code 3; and a chapter
// mutant (a server that answers notifications) must make the SDK client see a protocol problem.
// Every run goes through the bridge's own job file and command line, permission model included.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { learnerServerArgv, writeLearnerJobFile, type LearnerJobFile } from '../../server/learner-job-file.ts';
import { LEARNER_SERVER_LOAD_EXIT_CODE } from '../../src/sandbox/learner-server-constants.ts';
import type { LearnerServerSource } from '../../src/runtime/host.ts';
import { applyEdits } from '../mutants/apply-mutant.ts';
import answersNotifications from '../mutants/04-server/answers-notifications.ts';
import { builtProgram } from './child-transport.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

// The unsandboxed runs' job files go in a folder of this file's own: other files, running at the
// same time, check the shared temp folder for job folders the bridge must never leave.
const JOB_PARENT = mkdtempSync(join(tmpdir(), 'mcp-test-jobs-'));
afterAll(() => rmSync(JOB_PARENT, { recursive: true, force: true }));

const REFERENCE: LearnerServerSource = { code: readFileSync(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8'), file: 'server.ts', moduleId: '@protocol/server' };
const TEXT = '你好 👋 check my server';

const jobs: LearnerJobFile[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const job of jobs.splice(0)) job.remove();
});

function jobFor(source: LearnerServerSource): LearnerJobFile {
  const job = writeLearnerJobFile({ framing: 'ndjson', faults: [], source }, JOB_PARENT);
  jobs.push(job);
  return job;
}

async function connect(source: LearnerServerSource) {
  const [command, ...args] = learnerServerArgv(builtProgram('learner-server'), jobFor(source).path);
  const transport = new StdioClientTransport({ command: command as string, args, stderr: 'pipe' });
  const stderr: Buffer[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const client = new Client({ name: 'check-my-server', version: '1.0.0' });
  const problems: Error[] = [];
  client.onerror = (error) => problems.push(error);
  clients.push(client);
  await client.connect(transport);
  return { client, problems, stderr: () => Buffer.concat(stderr).toString('utf8') };
}

/** Run the runner to its end without a client; resolves with its exit code and stderr. */
function runToExit(source: LearnerServerSource): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const [command, ...args] = learnerServerArgv(builtProgram('learner-server'), jobFor(source).path);
  const child = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.end();
  return new Promise((done) => child.on('close', (code) => done({ code, stderr, stdout })));
}

describe('learner-server.mjs with the reference server as the learner file, against the official SDK client', () => {
  it('handshakes, lists the echo tools, calls echo, reports a failing tool as isError, refuses an unknown tool, answers ping', async () => {
    const { client, problems, stderr } = await connect(REFERENCE);
    expect(client.getServerVersion()?.name).toBe('mcp-echo-server');

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);

    const echoed = await client.callTool({ name: 'echo', arguments: { text: TEXT } });
    expect(echoed.content).toEqual([{ type: 'text', text: TEXT }]);

    const failed = await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } });
    expect(failed.isError).toBe(true);

    // The chapter's server answers an unknown tool with -32602, which the SDK client rejects with.
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.ping()).resolves.toEqual({});

    expect(problems).toEqual([]);
    // The learner's server ran inside the echo session: its log names their file and the requests.
    expect(stderr()).toContain('[learner-server] pid');
    expect(stderr()).toContain('your server.ts');
    expect(stderr()).toContain('request tools/call');
  });
});

describe('a learner file that does not load', () => {
  it('a syntax error: one stderr line with file, line and column, and exit code 3', async () => {
    const result = await runToExit({ code: 'export class McpServer {\n  handle() { return 1 +; }\n}\n', file: 'server.ts' });
    expect(result.code).toBe(LEARNER_SERVER_LOAD_EXIT_CODE);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^\[learner-server\] your server did not load: server\.ts:2:\d+: /)]);
  });

  it('no McpServer export: names what the file does export', async () => {
    const result = await runToExit({ code: 'export class Server {}\n', file: 'server.ts' });
    expect(result.code).toBe(LEARNER_SERVER_LOAD_EXIT_CODE);
    expect(result.stderr).toContain("your server did not load: server.ts does not export 'McpServer' (it exports Server)");
  });

  it('a constructor that throws: the line and the error', async () => {
    const code = "export class McpServer {\n  constructor() {\n    throw new RangeError('not yet');\n  }\n}\n";
    const result = await runToExit({ code, file: 'server.ts' });
    expect(result.code).toBe(LEARNER_SERVER_LOAD_EXIT_CODE);
    expect(result.stderr).toContain('your server did not load: server.ts:3: new McpServer(...) threw RangeError: not yet');
  });
});

describe('a chapter mutant: the server answers notifications', () => {
  it('makes the official SDK client report a protocol problem', async () => {
    const mutant = applyEdits(REFERENCE.code, answersNotifications.edits, { mutant: '04-server/answers-notifications', file: 'src/protocol/server.ts' });
    const { client, problems } = await connect({ ...REFERENCE, code: mutant });
    // The orphan reply to notifications/initialized arrives right after connect; let it land.
    await client.ping();
    expect(problems.length).toBeGreaterThan(0);
    // The reply carries id null, which no JSON-RPC message may: the SDK's schema rejects it at "id".
    const reported = problems.map((error) => error.message).join('\n');
    expect(reported).toContain('invalid_union');
    expect(reported).toMatch(/"path": \[\s*"id"\s*\]/);
  });
});
