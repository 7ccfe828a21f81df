// The feature demo (mcp-http --tools=features) in the WebContainer host, against the faithful fake:
// the same program as on the bridge, started through the tap in a hostile pseudo-terminal. A
// subscribed resource's update and a refused sampling request arrive through it.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { McpClient, ServerRequestRefused, type ClientEvent } from '../../src/protocol/client.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { createWebContainerHost, type WebContainerFileName } from '../../src/runtime/webcontainer-host.ts';
import { createFakeBoot } from '../fakes/fake-webcontainer.ts';
import { exchangesOf } from '../support/http1-items.ts';

const GENERATED = resolve(import.meta.dirname, '../../public/generated');

beforeAll(async () => {
  // Built by the global setup; never rebuilt here while other files spawn them.
  if (!existsSync(resolve(GENERATED, 'tap.mjs')) || !existsSync(resolve(GENERATED, 'mcp-http.mjs'))) await buildNodePrograms();
});

const fakes: ReturnType<typeof createFakeBoot>[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.teardown()));
});

describe('mcp-http --tools=features in the WebContainer (fake)', () => {
  it('delivers a resource update after subscribe and sends a refusal for sampling, every byte in the tap events', async () => {
    const fake = createFakeBoot({ terminal: { seed: 11, echo: true } });
    fakes.push(fake);
    const host = createWebContainerHost({ boot: fake.boot, fetchProgram: (name: WebContainerFileName) => readFile(resolve(GENERATED, `${name}.mjs`), 'utf8'), isolated: () => true });
    const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'features' })) as HttpWire;
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));
    const client = new McpClient(wire, {
      framing: 'ndjson',
      requestTimeoutMs: 10_000,
      capabilities: { sampling: {} },
      serverRequests: { 'sampling/createMessage': () => Promise.reject(new ServerRequestRefused(-1, 'User rejected sampling request')) },
    });
    const updated = new Promise<void>((resolve) => client.on((event: ClientEvent) => event.type === 'notification' && event.message.method === 'notifications/resources/updated' && resolve()));
    await client.connect();
    await client.sendRequest('resources/subscribe', { uri: 'demo://counter' });
    await client.sendRequest('tools/call', { name: 'increment', arguments: {} });
    await updated;
    const refused = (await client.sendRequest('tools/call', { name: 'ask_model', arguments: { question: '?' } })) as { isError?: boolean };
    expect(refused.isError).toBe(true);
    wire.end();
    await closed;

    const exchanges = exchangesOf(events);
    expect(exchanges.find((exchange) => exchange.line === 'GET')!.response!.body).toContain('notifications/resources/updated');
    expect(exchanges.some((exchange) => exchange.request.body.includes('"code":-1') && exchange.response!.head.status === 202)).toBe(true);
  });
});
