// learner-server in the WebContainer host, against the fake WebContainer (real Node behind a
// hostile pseudo-terminal, tests/fakes/fake-webcontainer.ts): the host mounts a job file with the
// learner's source next to the bundles and runs the same runner the bridge runs, under the tap.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { McpClient } from '../../src/protocol/client.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { base64ToBytes } from '../../src/runtime/tap-protocol.ts';
import { createWebContainerHost, LEARNER_RUNNER_FILE, WEBCONTAINER_FILES, type WebContainerFileName } from '../../src/runtime/webcontainer-host.ts';
import { createFakeBoot } from '../fakes/fake-webcontainer.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

const GENERATED = resolve(PROJECT_ROOT, 'public/generated');
const REFERENCE = { code: '', file: 'server.ts', moduleId: '@protocol/server' };
const TEXT = '你好 👋 ünïcödé';

beforeAll(async () => {
  if (!existsSync(resolve(GENERATED, 'learner-server.mjs'))) await buildNodePrograms();
  REFERENCE.code = await readFile(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8');
});

const fakes: ReturnType<typeof createFakeBoot>[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.teardown()));
});

function fakeHost() {
  const fake = createFakeBoot({ terminal: { maxChunk: 7, escapeRate: 0.1 } });
  fakes.push(fake);
  const fetched: WebContainerFileName[] = [];
  const fetchProgram = (name: WebContainerFileName) => {
    fetched.push(name);
    return readFile(resolve(GENERATED, `${name}.mjs`), 'utf8');
  };
  return { fake, fetched, host: createWebContainerHost({ boot: fake.boot, fetchProgram, isolated: () => true }) };
}

function stderrOf(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
}

describe('the WebContainer host runs learner-server', () => {
  it('fetches the runner on the first learner-server start only, and once', async () => {
    expect(WEBCONTAINER_FILES).not.toContain(LEARNER_RUNNER_FILE);
    const { host, fetched } = fakeHost();
    expect(await host.probe()).toMatchObject({ status: 'available' });
    expect(fetched).not.toContain(LEARNER_RUNNER_FILE);
    for (let run = 0; run < 2; run++) {
      const wire = await host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: 'export class Server {}', file: 'server.ts' } });
      await new Promise<string>((done) => wire.onClose(done));
    }
    expect(fetched.filter((name) => name === LEARNER_RUNNER_FILE)).toHaveLength(1);
  });

  it("serves MCP through the learner's server, the source mounted as a job file", async () => {
    const { fake, host } = fakeHost();
    const wire = await host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: REFERENCE });
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 10_000 });
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect((await client.callTool('echo', { text: TEXT })).content).toEqual([{ type: 'text', text: TEXT }]);
    const closed = new Promise<string>((done) => wire.onClose(done));
    client.close();
    expect(await closed).toBe('server exited with code 0');

    const spawn = events.find((event) => event.ev === 'spawn');
    expect(spawn).toMatchObject({ argv: ['node', 'learner-server.mjs', 'learner-job-1.json'] });
    const job = JSON.parse(await readFile(join(fake.instance?.workdir as string, 'learner-job-1.json'), 'utf8')) as { source: { code: string } };
    expect(job.source.code).toBe(REFERENCE.code);
    expect(stderrOf(events)).toContain('[learner-server] pid');
  });

  it('a file that does not load: one stderr line and exit code 3, through the terminal', async () => {
    const { host } = fakeHost();
    const wire = await host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: 'export class McpServer {\n  x = ;\n}\n', file: 'server.ts' } });
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    expect(await new Promise<string>((done) => wire.onClose(done))).toBe('server exited with code 3');
    expect(stderrOf(events)).toMatch(/^\[learner-server\] your server did not load: server\.ts:2:\d+: /);
  });

  it('refuses a source over the size limit before spawning anything', async () => {
    const { fake, host } = fakeHost();
    await expect(host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: 'x'.repeat(300 * 1024), file: 'server.ts' } })).rejects.toThrow(
      'the limit is 256 KiB',
    );
    expect(fake.instance?.processes ?? []).toHaveLength(0);
  });
});
