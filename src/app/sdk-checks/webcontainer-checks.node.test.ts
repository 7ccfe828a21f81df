// Both SDK checks on the WebContainer host, which cannot boot here (no network to StackBlitz): the
// host runs against the project's faithful fake (tests/fakes/fake-webcontainer.ts), which spawns
// the real tap and the real built programs behind a hostile pseudo-terminal. The checks must see
// exactly what they see on the bridge.

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFakeBoot } from '../../../tests/fakes/fake-webcontainer.ts';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { createWebContainerHost, type WebContainerFileName } from '../../runtime/webcontainer-host.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import { checkClient, CLIENT_CHECKS } from './check-client.ts';
import { checkServer, SERVER_CHECKS } from './check-server.ts';
import { checkHttpClient, HTTP_CLIENT_CHECKS } from './check-client-http.ts';
import { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { protocolModules } from '../../../tools/testing/node-wires.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const fakes: ReturnType<typeof createFakeBoot>[] = [];
afterEach(async () => {
  closeLearnerChannels();
  await Promise.all(fakes.splice(0).map((fake) => fake.teardown()));
});

function webContainerHost() {
  const fake = createFakeBoot();
  fakes.push(fake);
  return createWebContainerHost({
    boot: fake.boot,
    fetchProgram: (name: WebContainerFileName) => readFile(join(PROJECT_ROOT, 'public/generated', `${name}.mjs`), 'utf8'),
    isolated: () => true,
  });
}

describe('the SDK checks on the WebContainer host (fake container, real programs)', () => {
  it('Check my client passes with the reference client against sdk-echo-server', async () => {
    const wire = await webContainerHost().start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] });
    const driver = new LearnerDriver({ code: read('src/protocol/client.ts'), file: 'client.ts', moduleId: '@protocol/client' }, learnerWorkerFactory(modules));
    const report = await checkClient(wire, driver);
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(CLIENT_CHECKS.map((check) => [check.id, 'pass', undefined]));
  }, 30_000);

  it("Check my client in HTTP mode passes with exercise 6's reference module against sdk-http-server, relayed by the tap inside the container", async () => {
    const wire = (await webContainerHost().start({ program: 'sdk-http-server', framing: 'ndjson', faults: [] })) as HttpWire;
    const driver = new LearnerHttpDriver({ code: read('src/protocol/http/streamable-client.ts'), file: 'streamable-client.ts', moduleId: '@protocol/http/streamable-client' }, learnerWorkerFactory(modules));
    const report = await checkHttpClient(wire, driver);
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(HTTP_CLIENT_CHECKS.map((check) => [check.id, 'pass', undefined]));
  }, 30_000);

  it('Check my server passes with the reference server run by learner-server.mjs', async () => {
    const wire = await webContainerHost().start({
      program: 'learner-server',
      framing: 'ndjson',
      faults: [],
      learnerServer: { code: read('src/protocol/server.ts'), file: 'server.ts', moduleId: '@protocol/server' },
    });
    const report = await checkServer(wire);
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(SERVER_CHECKS.map((check) => [check.id, 'pass', undefined]));
  }, 30_000);
});
