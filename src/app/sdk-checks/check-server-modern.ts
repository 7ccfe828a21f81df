// "Check my server" with a client of the 2026-07-28 era: SDK 2.4.0's Client
// (@modelcontextprotocol/client) in its default version negotiation, `auto`. It opens with a
// `server/discover` probe; the learner's exercise-4 server speaks the handshake era, so it must
// answer the probe with a JSON-RPC error (typically -32601, method not found) — not silence, not a
// crash — and the SDK then falls back to `initialize` on the same pipe. This is what every
// handshake-era server meets once clients move to 2026-07-28. The client runs on the page, as the
// SDK 1.x check's does; the learner's server runs where that check runs it (the bridge's sandbox,
// or the in-browser worker).
//
// Loaded only through a dynamic import (checkers.ts): it pulls in SDK 2.4.0.

import { Client } from '@modelcontextprotocol/client';
import type { Wire } from '../../runtime/host.ts';
import { tapEventBytes } from '../../runtime/tap-protocol.ts';
import { CheckFailure, DEFAULT_CHECK_LIMIT_MS, pretty, runChecks, type Check, type CheckResult, type SdkCheckReport } from './check-run.ts';
import { SERVER_CHECK_TEXT } from './check-server.ts';
import { watchServer } from './server-watch.ts';
import { LineCutter, WireTransport } from './wire-transport.ts';

export const MODERN_CLIENT_NAME = 'mcp-playground-sdk2-check';

export interface ModernServerCheckContext {
  client: Client;
  transport: WireTransport;
  /** Every line each side wrote, as the tap saw it. */
  lines(): { client: unknown[]; server: unknown[] };
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

export const MODERN_SERVER_CHECKS: readonly Check<ModernServerCheckContext>[] = [
  {
    id: 'probe-fallback',
    title: 'SDK 2.4.0 probes server/discover; a handshake-era server answers with an error and the client falls back to initialize (a 2026-07-28 server answers it)',
    code: "const client = new Client({ name: 'sdk2-check', version: '1.0.0' }); // versionNegotiation: auto\nawait client.connect(transport); // server/discover, then initialize",
    async run({ client, transport, lines }) {
      await client.connect(transport as never);
      const { client: sent, server: answered } = lines();
      const probe = sent[0] as { id?: unknown; method?: unknown } | undefined;
      if (probe?.method !== 'server/discover') throw new CheckFailure('The SDK 2.4.0 client should open with a server/discover probe.', '"server/discover"', pretty(probe));
      const answer = answered.find((message) => (message as { id?: unknown }).id === probe.id) as { error?: { code?: unknown }; result?: unknown } | undefined;
      // A server that speaks 2026-07-28 itself answers the probe: no fallback needed, and that is fine too.
      if (answer?.result !== undefined && client.getProtocolEra() === 'modern') return;
      if (answer?.error === undefined) {
        throw new CheckFailure(
          'A handshake-era server must answer a method it does not know with a JSON-RPC error, before initialize too (-32601 method not found, or the chapter\'s -32600 "before initialize"): that error is how a 2026-07-28 client learns to fall back.',
          '{ "error": { "code": -32601, … } }',
          pretty(answer ?? 'no answer'),
        );
      }
      if (client.getProtocolEra() !== 'legacy' || !sent.some((message) => (message as { method?: unknown }).method === 'initialize')) {
        throw new CheckFailure('After the error the SDK should have fallen back to the handshake.', 'era legacy, initialize sent', pretty({ era: client.getProtocolEra(), methods: sent.map((message) => (message as { method?: unknown }).method) }));
      }
    },
  },
  {
    id: 'list-tools',
    title: 'listTools through the SDK 2.4.0 client: echo is listed',
    code: 'const { tools } = await client.listTools();',
    async run({ client }) {
      const { tools } = await client.listTools();
      if (!tools.some((tool) => tool.name === 'echo')) throw new CheckFailure('tools/list does not list echo.', '"echo" among the names', pretty(tools.map((tool) => tool.name)));
    },
  },
  {
    id: 'call-echo',
    title: 'callTool echo through the SDK 2.4.0 client: the same text comes back',
    code: `await client.callTool({ name: 'echo', arguments: { text: ${JSON.stringify(SERVER_CHECK_TEXT)} } });`,
    async run({ client }) {
      const result = await client.callTool({ name: 'echo', arguments: { text: SERVER_CHECK_TEXT } });
      const expected = [{ type: 'text', text: SERVER_CHECK_TEXT }];
      if (JSON.stringify(result.content) !== JSON.stringify(expected)) throw new CheckFailure('echo did not return the text unchanged.', pretty(expected), pretty(result.content));
    },
  },
];

export interface ModernServerCheckOptions {
  limitMs?: number;
  onResult?(result: CheckResult, index: number, total: number): void;
}

/** Runs the 2026-era client's checks over a started learner server's wire; kills the server afterwards. */
export async function checkServerModern(wire: Wire, options: ModernServerCheckOptions = {}): Promise<SdkCheckReport> {
  const watch = watchServer(wire);
  const cutters = { c2s: new LineCutter(), s2c: new LineCutter() };
  const seen = { client: [] as unknown[], server: [] as unknown[] };
  const stop = wire.onTapEvent((event) => {
    if (event.ev !== 'c2s' && event.ev !== 's2c') return;
    const found = cutters[event.ev].push(tapEventBytes(event)).map(parsed);
    (event.ev === 'c2s' ? seen.client : seen.server).push(...found);
  });
  const transport = new WireTransport(wire, { kill: () => wire.kill(), closeGraceMs: 500 });
  const client = new Client({ name: MODERN_CLIENT_NAME, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const limitMs = options.limitMs ?? DEFAULT_CHECK_LIMIT_MS;
  try {
    return await runChecks(MODERN_SERVER_CHECKS, { client, transport, lines: () => seen }, { suite: 'server', limitMs, watch, onResult: options.onResult });
  } finally {
    stop();
    watch.dispose();
    await client.close().catch(() => {});
    wire.kill();
  }
}
