import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import { answerInputRequests, capabilitiesFor, classifyProbe, ModernSession, type InputHandlers, type ModernSessionOptions } from '@learner';
// The reference solution: the properties compare your code with it.
import * as reference from '@reference/era/stateless-client';
import { McpClient } from '@protocol/client';
import { McpRpcError, ProtocolViolationError } from '@protocol/client-errors';
import { InputRequiredError } from '@protocol/era/era-errors';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO } from '@protocol/era/meta';
import type { ProbeContext, ProbeOutcome, ProbeVerdict } from '@protocol/era/probe';
import { RpcChannel } from '@protocol/era/rpc-channel';
import { encodeLine, LineReader } from '@protocol/framing/ndjson';
import type { JsonRpcMessage, JsonRpcRequest } from '@protocol/jsonrpc';
import type { ByteTransport } from '@protocol/transport';

// ---- a scripted server at the far end of the pipe ----

const MODERN = '2026-07-28';
/** A later modern revision that does not exist yet: what a newer client or server would offer. */
const NEXT = '2027-03-01';
const CLIENT_INFO = { name: 'spec-client', version: '1.0.0' };
const SERVER_INFO = { name: 'fake-modern-server', version: '2.0.0' };

const MAX_ANSWERS = 50;

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | 'silence';

/**
 * The server's side of a stdio pipe: every request the client writes is answered, one microtask
 * later, with what `answer` returns for it (`nth`: how many requests came before it). Past
 * MAX_ANSWERS requests it falls silent: a client that retries without end then waits (and the
 * test fails on time) instead of spinning in microtasks that no timer could ever interrupt.
 */
class ScriptedServer implements ByteTransport {
  readonly fromClient: JsonRpcMessage[] = [];
  stdinEnded = false;
  private readonly reader = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();

  constructor(private readonly answer: (request: JsonRpcRequest, nth: number) => Answer) {}

  write(bytes: Uint8Array): void {
    if (this.stdinEnded) throw new Error('the client wrote to a stdin it had already closed');
    for (const item of this.reader.push(bytes)) {
      if (item.type === 'error') throw new Error(`the client wrote an unreadable frame: ${item.detail}`);
      const message = item.value as JsonRpcMessage;
      this.fromClient.push(message);
      if (!('method' in message) || !('id' in message)) continue;
      const nth = this.requests().length - 1;
      const reply = nth >= MAX_ANSWERS ? 'silence' : this.answer(message as JsonRpcRequest, nth);
      if (reply === 'silence') continue;
      void Promise.resolve().then(() => this.send({ jsonrpc: '2.0', id: message.id, ...reply }));
    }
  }
  end(): void {
    this.stdinEnded = true;
  }
  onData(listener: (chunk: Uint8Array) => void) {
    this.dataListeners.add(listener);
    return () => void this.dataListeners.delete(listener);
  }
  onClose(listener: (reason: string) => void) {
    this.closeListeners.add(listener);
    return () => void this.closeListeners.delete(listener);
  }
  send(message: unknown): void {
    for (const listener of [...this.dataListeners]) listener(encodeLine(message));
  }
  exit(reason: string): void {
    for (const listener of [...this.closeListeners]) listener(reason);
  }
  /** The requests the client wrote (notifications left out), optionally of one method. */
  requests(method?: string): JsonRpcRequest[] {
    return this.fromClient.filter((message): message is JsonRpcRequest => 'method' in message && 'id' in message && (method === undefined || message.method === method));
  }
}

// ---- what the server says ----

const discoverResult = (supportedVersions: string[] = [MODERN]) => ({
  resultType: 'complete',
  supportedVersions,
  capabilities: { tools: {} },
  _meta: { [META_SERVER_INFO]: SERVER_INFO },
});
const unsupported = (supported: string[], requested = MODERN): Answer => ({ error: { code: -32022, message: 'Unsupported protocol version', data: { supported, requested } } });
const toolResult = (text: string, resultType?: string) => ({ content: [{ type: 'text', text }], ...(resultType === undefined ? {} : { resultType }) });
const inputRequired = (inputRequests: Record<string, unknown> | undefined, requestState?: string) => ({
  resultType: 'input_required',
  ...(inputRequests === undefined ? {} : { inputRequests }),
  ...(requestState === undefined ? {} : { requestState }),
});
const CONFIRM = { method: 'elicitation/create', params: { message: 'Delete the file?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } };
const ROOTS = { method: 'roots/list', params: {} };

/** Input handlers that answer from their params, so every answer can be checked. */
const HANDLERS: Required<InputHandlers> = {
  'elicitation/create': async (params) => ({ action: 'accept', content: { ok: true, about: params.message } }),
  'roots/list': () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
  'sampling/createMessage': () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'spec-model' }),
};

// ---- helpers ----

const channels: RpcChannel[] = [];

afterEach(() => {
  for (const channel of channels.splice(0)) channel.close();
});

type SessionClass = new (channel: RpcChannel, options: ModernSessionOptions) => Pick<ModernSession, 'discover' | 'request' | 'envelope' | 'version' | 'serverInfo'>;

function setup(answer: (request: JsonRpcRequest, nth: number) => Answer, options: Partial<ModernSessionOptions> = {}, Session: SessionClass = ModernSession) {
  const server = new ScriptedServer(answer);
  const channel = new RpcChannel(server, { framing: 'ndjson' });
  channels.push(channel);
  const versionChanges: string[] = [];
  const session = new Session(channel, {
    version: MODERN,
    versions: [MODERN],
    clientInfo: CLIENT_INFO,
    inputHandlers: {},
    requestTimeoutMs: 1000,
    onVersionChange: (version) => versionChanges.push(version),
    ...options,
  });
  return { server, channel, session, versionChanges };
}

/** A server that answers server/discover with `discover`, and everything else with `rest`. */
const modernServer = (rest: (request: JsonRpcRequest, nth: number) => Answer) => (request: JsonRpcRequest, nth: number) =>
  request.method === 'server/discover' ? { result: discoverResult() } : rest(request, nth);

const metaOf = (request: JsonRpcRequest | undefined): Record<string, unknown> => ((request?.params ?? {}) as { _meta?: Record<string, unknown> })._meta ?? {};
const paramsOf = (request: JsonRpcRequest | undefined): Record<string, unknown> => (request?.params ?? {}) as Record<string, unknown>;

/** Waits for `promise`, failing with a readable message instead of hanging when it never settles. */
async function within<T>(promise: Promise<T>, what: string, ms = 200): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never settled (waited ${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error an operation fails with; a readable failure when it succeeds instead. */
async function rejectionOf(run: () => Promise<unknown>, what: string): Promise<unknown> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = await within(
      run().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      what,
    );
  } catch (error) {
    return error;
  }
  if (outcome.ok) throw new Error(`${what} should have failed, but it succeeded with ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

// ---- the spec ----

describe('The envelope on every request', () => {
  it('request() puts protocolVersion, clientCapabilities and clientInfo in params._meta', async () => {
    const { server, session } = setup(() => ({ result: { tools: [] } }));
    await within(session.request('tools/list'), 'request("tools/list")');
    expect(metaOf(server.requests('tools/list')[0])).toEqual({ [META_PROTOCOL_VERSION]: MODERN, [META_CLIENT_CAPABILITIES]: {}, [META_CLIENT_INFO]: CLIENT_INFO });
  });

  it("keeps the caller's params and the _meta keys already there", async () => {
    const { server, session } = setup(() => ({ result: toolResult('hi') }));
    await within(session.request('tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7 } }), 'request("tools/call")');
    const sent = paramsOf(server.requests('tools/call')[0]);
    expect(sent).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
    expect(metaOf(server.requests('tools/call')[0])).toMatchObject({ progressToken: 7, [META_PROTOCOL_VERSION]: MODERN });
  });

  it('declares exactly the capabilities it has handlers for', async () => {
    expect(capabilitiesFor({})).toEqual({});
    expect(capabilitiesFor({ 'elicitation/create': HANDLERS['elicitation/create'] })).toEqual({ elicitation: {} });
    expect(capabilitiesFor(HANDLERS)).toEqual({ elicitation: {}, roots: {}, sampling: {} });
    const { server, session } = setup(() => ({ result: { tools: [] } }), { inputHandlers: { 'roots/list': HANDLERS['roots/list'] } });
    expect(session.envelope()).toMatchObject({ protocolVersion: MODERN, clientCapabilities: { roots: {} }, clientInfo: CLIENT_INFO });
    await within(session.request('tools/list'), 'request("tools/list")');
    expect(metaOf(server.requests('tools/list')[0])[META_CLIENT_CAPABILITIES]).toEqual({ roots: {} });
  });

  it('the server/discover probe carries the full envelope too, and nothing else', async () => {
    const { server, session } = setup(modernServer(() => ({ result: {} })), { inputHandlers: { 'elicitation/create': HANDLERS['elicitation/create'] } });
    await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    const probe = server.requests('server/discover')[0];
    expect(paramsOf(probe)).toEqual({ _meta: { [META_PROTOCOL_VERSION]: MODERN, [META_CLIENT_CAPABILITIES]: { elicitation: {} }, [META_CLIENT_INFO]: CLIENT_INFO } });
  });

  it('no session: two requests carry the same envelope, and nothing ties one to the other', async () => {
    const { server, session } = setup(() => ({ result: { tools: [] } }));
    await within(session.request('tools/list'), 'the first request');
    await within(session.request('tools/list'), 'the second request');
    const [first, second] = server.requests('tools/list');
    expect(first?.id).not.toEqual(second?.id);
    expect(paramsOf(second)).toEqual(paramsOf(first));
  });
});

describe('server/discover', () => {
  it('discover() sends server/discover at the preferred version; a DiscoverResult listing it makes the server modern', async () => {
    const { server, session } = setup(modernServer(() => ({ result: {} })));
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(server.requests().map((request) => request.method)).toEqual(['server/discover']);
    expect(metaOf(server.requests()[0])[META_PROTOCOL_VERSION]).toBe(MODERN);
    expect(verdict).toMatchObject({ kind: 'modern', version: MODERN, discover: { supportedVersions: [MODERN], capabilities: { tools: {} }, serverInfo: SERVER_INFO } });
  });

  it('offers our preferred version first and settles on the first of ours the server lists', async () => {
    const { server, session } = setup(modernServer(() => ({ result: { tools: [] } })), { version: NEXT, versions: [NEXT, MODERN] });
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(metaOf(server.requests('server/discover')[0])[META_PROTOCOL_VERSION]).toBe(NEXT);
    expect(verdict).toMatchObject({ kind: 'modern', version: MODERN });
    expect(session.version).toBe(MODERN);
    await within(session.request('tools/list'), 'request("tools/list")');
    expect(metaOf(server.requests('tools/list')[0])[META_PROTOCOL_VERSION]).toBe(MODERN);
  });

  it("our order of preference decides which mutual version, not the server's", () => {
    const verdict = classifyProbe({ kind: 'result', result: discoverResult([MODERN, NEXT]) }, { ours: [NEXT, MODERN], transport: 'stdio' });
    expect(verdict).toMatchObject({ kind: 'modern', version: NEXT });
  });

  it('a pin offers only the pinned version', async () => {
    const { server, session } = setup((request) => (request.method === 'server/discover' ? { result: discoverResult([MODERN, NEXT]) } : { result: {} }), { versions: [MODERN, NEXT] });
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000, versions: [NEXT] }), 'discover()');
    expect(metaOf(server.requests('server/discover')[0])[META_PROTOCOL_VERSION]).toBe(NEXT);
    expect(verdict).toMatchObject({ kind: 'modern', version: NEXT });
  });

  it('tells onProbe what each probe found', async () => {
    const { session } = setup(modernServer(() => ({ result: {} })));
    const seen: unknown[] = [];
    await within(session.discover({ transport: 'stdio', timeoutMs: 1000, onProbe: (version, outcome, verdict) => seen.push({ version, outcome: outcome.kind, verdict: verdict.kind }) }), 'discover()');
    expect(seen).toEqual([{ version: MODERN, outcome: 'result', verdict: 'modern' }]);
  });

  it('remembers the serverInfo a result carries in its _meta', async () => {
    const { session } = setup(() => ({ result: { tools: [], resultType: 'complete', _meta: { [META_SERVER_INFO]: SERVER_INFO } } }));
    expect(session.serverInfo).toBeUndefined();
    await within(session.request('tools/list'), 'request("tools/list")');
    expect(session.serverInfo).toEqual(SERVER_INFO);
  });

  it('keeps the latest serverInfo: a later result replaces the one discover() read, and a result without one changes nothing', async () => {
    const UPGRADED = { name: 'fake-modern-server', version: '2.1.0' };
    const { session } = setup(modernServer((request) => (request.method === 'tools/list' ? { result: { tools: [], _meta: { [META_SERVER_INFO]: UPGRADED } } } : { result: {} })));
    await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(session.serverInfo).toEqual(SERVER_INFO);
    await within(session.request('tools/list'), 'request("tools/list")');
    expect(session.serverInfo).toEqual(UPGRADED);
    await within(session.request('ping'), 'request("ping")');
    expect(session.serverInfo).toEqual(UPGRADED);
  });
});

describe('Falling back to the handshake', () => {
  it('-32601 (a legacy server does not know server/discover) means legacy', async () => {
    const { session } = setup(() => ({ error: { code: -32601, message: 'Method not found' } }));
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(verdict.kind).toBe('legacy');
  });

  it('silence on stdio means legacy; on HTTP it means the server is down: fail', async () => {
    const stdio = setup(() => 'silence');
    expect((await within(stdio.session.discover({ transport: 'stdio', timeoutMs: 10 }), 'discover() on stdio')).kind).toBe('legacy');
    const http = setup(() => 'silence');
    expect((await within(http.session.discover({ transport: 'http', timeoutMs: 10 }), 'discover() on HTTP')).kind).toBe('fail');
  });

  it('an answer that is not a DiscoverResult, or a DiscoverResult listing none of ours but a handshake-era version, means legacy', async () => {
    const odd = setup(() => ({ result: { protocolVersion: '2025-11-25', capabilities: {} } }));
    expect((await within(odd.session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('legacy');
    const older = setup(() => ({ result: discoverResult(['2025-11-25']) }));
    expect((await within(older.session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('legacy');
  });

  it('a DiscoverResult listing only modern versions we lack, or none at all, comes from a modern server: fail, never legacy', async () => {
    for (const supported of [[NEXT], []]) {
      const { server, session } = setup(() => ({ result: discoverResult(supported) }));
      const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), `discover() answered with supportedVersions ${JSON.stringify(supported)}`);
      expect(verdict.kind).toBe('fail');
      expect(server.requests().map((request) => request.method)).toEqual(['server/discover']);
    }
  });

  it('-32020 and -32021 come from a modern server that refused the request: fail, never legacy', async () => {
    for (const code of [-32020, -32021]) {
      const { session } = setup(() => ({ error: { code, message: 'refused' } }));
      expect((await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), `discover() answered with ${code}`)).kind).toBe('fail');
    }
  });

  it('a closed connection is a failure', async () => {
    const { server, session } = setup(() => 'silence');
    const discovering = session.discover({ transport: 'stdio', timeoutMs: 1000 });
    server.exit('the server exited');
    expect((await within(discovering, 'discover()')).kind).toBe('fail');
  });

  it('after a legacy verdict the pipe is still open, and the handshake runs on it', async () => {
    const { server, channel, session } = setup((request) =>
      request.method === 'initialize'
        ? { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO } }
        : { error: { code: -32601, message: 'Method not found' } },
    );
    expect((await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('legacy');
    expect(server.stdinEnded).toBe(false);
    channel.detach();
    const client = new McpClient(server, { framing: 'ndjson', clientInfo: CLIENT_INFO, firstId: channel.peekNextId });
    await within(client.connect(), 'the handshake after the fallback');
    expect(client.state).toBe('ready');
    expect(server.fromClient.map((message) => ('method' in message ? message.method : 'a response'))).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    client.close();
  });

  it('for any answer to server/discover: the same verdict as the reference', PROPERTY_TEST, async () => {
    const versions = fc.constantFrom(MODERN, NEXT, '2025-11-25', '2025-06-18', '2024-11-05', 'draft');
    // Lists in any order: whose preference decides is part of the rule.
    const lists = fc.shuffledSubarray([NEXT, MODERN, '2025-11-25', '2024-11-05', 'draft']);
    const outcome: fc.Arbitrary<ProbeOutcome> = fc.oneof(
      fc.record({
        kind: fc.constant('result' as const),
        result: fc.oneof(
          { weight: 5, arbitrary: fc.record({ supportedVersions: lists, capabilities: fc.constant({ tools: {} }) }) },
          fc.record({ supportedVersions: fc.array(versions, { maxLength: 3 }), capabilities: fc.constant(null) }),
          fc.record({ protocolVersion: versions, capabilities: fc.constant({}) }),
          fc.constantFrom(null, 'ok', { content: [] }),
        ),
      }),
      fc.record({
        kind: fc.constant('error' as const),
        code: fc.constantFrom(-32022, -32020, -32021, -32601, -32600, -32602, -32603, -32000),
        message: fc.constant('refused'),
        data: fc.oneof(fc.constant(undefined), fc.constant({}), fc.record({ supported: lists, requested: versions })),
      }),
      fc.constant({ kind: 'timeout' as const }),
      fc.constant({ kind: 'closed' as const, reason: 'the server exited' }),
    );
    const context: fc.Arbitrary<ProbeContext> = fc.record({ ours: fc.subarray([NEXT, MODERN], { minLength: 1 }), transport: fc.constantFrom('stdio' as const, 'http' as const) });
    const observe = (verdict: ProbeVerdict | unknown) => {
      if (typeof verdict !== 'object' || verdict === null) return { notAVerdict: String(verdict) };
      const { kind, version, discover } = verdict as { kind?: unknown; version?: unknown; discover?: unknown };
      return kind === 'modern' ? { kind, version, discover } : kind === 'retry' ? { kind, version } : { kind };
    };
    const run = (value: [ProbeOutcome, ProbeContext]) => {
      let actual: unknown;
      try {
        actual = observe(classifyProbe(...value));
      } catch (error) {
        actual = { threw: String(error) };
      }
      return { expected: observe(reference.classifyProbe(...value)), actual };
    };
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(outcome, context, async (...value) => {
        await pace();
        const { expected, actual } = run(value);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300, seed: 7 },
    );
    if (!details.failed || !details.counterexample) return;
    const { expected, actual } = run(details.counterexample);
    expect(actual, `for the outcome and context ${JSON.stringify(details.counterexample)}`).toEqual(expected);
  });
});

describe('Version mismatch: -32022', () => {
  it('a -32022 to the probe naming a version we speak: probe once more with it, and stay modern', async () => {
    const { server, session } = setup(
      (request) => (metaOf(request)[META_PROTOCOL_VERSION] === MODERN ? { result: discoverResult() } : unsupported([MODERN, '2025-11-25'], NEXT)),
      { version: NEXT, versions: [NEXT, MODERN] },
    );
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(server.requests('server/discover').map((request) => metaOf(request)[META_PROTOCOL_VERSION])).toEqual([NEXT, MODERN]);
    expect(verdict).toMatchObject({ kind: 'modern', version: MODERN });
  });

  it('a second -32022 to the probe is a failure, not a third probe', async () => {
    const { server, session } = setup(() => unsupported([MODERN]), { version: NEXT, versions: [NEXT, MODERN] });
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()');
    expect(verdict.kind).toBe('fail');
    expect(server.requests('server/discover')).toHaveLength(2);
  });

  it('-32022 naming only handshake-era versions means legacy; naming only modern versions we lack, fail', async () => {
    const legacy = setup(() => unsupported(['2025-11-25', '2025-06-18']));
    expect((await within(legacy.session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('legacy');
    const newer = setup(() => unsupported([NEXT]));
    expect((await within(newer.session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('fail');
  });

  it('a -32022 whose supported list is empty or malformed means legacy; one listing a modern version we lack beside handshake-era ones, fail', async () => {
    const malformed: Answer[] = [unsupported([]), { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: '2025-11-25' } } }, { error: { code: -32022, message: 'Unsupported protocol version' } }];
    for (const answer of malformed) {
      const { session } = setup(() => answer);
      expect((await within(session.discover({ transport: 'stdio', timeoutMs: 1000 }), `discover() answered with ${JSON.stringify(answer)}`)).kind).toBe('legacy');
    }
    const mixed = setup(() => unsupported([NEXT, '2025-11-25']));
    expect((await within(mixed.session.discover({ transport: 'stdio', timeoutMs: 1000 }), 'discover()')).kind).toBe('fail');
  });

  it('onProbe hears what each answer alone means: the second -32022 is reported as retry, while discover() settles on fail', async () => {
    const { session } = setup(() => unsupported([MODERN]), { version: NEXT, versions: [NEXT, MODERN] });
    const seen: unknown[] = [];
    const verdict = await within(session.discover({ transport: 'stdio', timeoutMs: 1000, onProbe: (version, outcome, probed) => seen.push({ version, outcome: outcome.kind, verdict: probed.kind }) }), 'discover()');
    expect(seen).toEqual([
      { version: NEXT, outcome: 'error', verdict: 'retry' },
      { version: MODERN, outcome: 'error', verdict: 'retry' },
    ]);
    expect(verdict.kind).toBe('fail');
  });

  it('a -32022 to a request: sent once more, with a new id and the mutual version, which later requests keep', async () => {
    const { server, session, versionChanges } = setup(
      (request) => (metaOf(request)[META_PROTOCOL_VERSION] === NEXT ? unsupported([MODERN], NEXT) : { result: toolResult('ok') }),
      { version: NEXT, versions: [NEXT, MODERN] },
    );
    await within(session.request('tools/call', { name: 'echo', arguments: {} }), 'request("tools/call")');
    const calls = server.requests('tools/call');
    expect(calls.map((request) => metaOf(request)[META_PROTOCOL_VERSION])).toEqual([NEXT, MODERN]);
    expect(calls[1]?.id).not.toEqual(calls[0]?.id);
    expect(session.version).toBe(MODERN);
    expect(versionChanges).toEqual([MODERN]);
    await within(session.request('tools/list'), 'the next request');
    expect(metaOf(server.requests('tools/list')[0])[META_PROTOCOL_VERSION]).toBe(MODERN);
  });

  it('a -32022 with no version we speak is the caller\'s McpRpcError, with no retry', async () => {
    const { server, session } = setup(() => unsupported(['2025-11-25']));
    const error = await rejectionOf(() => session.request('tools/list'), 'request("tools/list")');
    expect(error).toBeInstanceOf(McpRpcError);
    expect((error as McpRpcError).code).toBe(-32022);
    expect(server.requests('tools/list')).toHaveLength(1);
  });

  it('a second -32022 to the same request is not retried again', async () => {
    const { server, session } = setup(() => unsupported([MODERN]), { version: NEXT, versions: [NEXT, MODERN] });
    const error = await rejectionOf(() => session.request('tools/list'), 'request("tools/list")');
    expect((error as McpRpcError).code).toBe(-32022);
    expect(server.requests('tools/list')).toHaveLength(2);
  });
});

describe('resultType', () => {
  it('a result without resultType is complete: returned as it is, no retry', async () => {
    const { server, session } = setup(() => ({ result: toolResult('an older server') }));
    expect(await within(session.request('tools/call', { name: 'echo' }), 'request("tools/call")')).toEqual(toolResult('an older server'));
    expect(server.requests('tools/call')).toHaveLength(1);
  });

  it('"complete" is the answer', async () => {
    const { session } = setup(() => ({ result: toolResult('done', 'complete') }));
    expect(await within(session.request('tools/call', { name: 'echo' }), 'request("tools/call")')).toEqual(toolResult('done', 'complete'));
  });

  it('a resultType nobody knows is a ProtocolViolationError', async () => {
    const { server, session } = setup(() => ({ result: toolResult('?', 'task') }));
    expect(await rejectionOf(() => session.request('tools/call', { name: 'echo' }), 'request("tools/call")')).toBeInstanceOf(ProtocolViolationError);
    expect(server.requests('tools/call')).toHaveLength(1);
  });

  it('input_required on a method that may not carry it (tools/list) is a ProtocolViolationError', async () => {
    const { server, session } = setup(() => ({ result: inputRequired({ where: ROOTS }, 's') }), { inputHandlers: HANDLERS });
    expect(await rejectionOf(() => session.request('tools/list'), 'request("tools/list")')).toBeInstanceOf(ProtocolViolationError);
    expect(server.requests('tools/list')).toHaveLength(1);
  });

  it('a result that is not an object is a ProtocolViolationError', async () => {
    const { session } = setup(() => ({ result: ['not', 'an', 'object'] }));
    expect(await rejectionOf(() => session.request('tools/list'), 'request("tools/list")')).toBeInstanceOf(ProtocolViolationError);
  });
});

describe('An MRTR round', () => {
  it('answers every input request with its handler and retries with inputResponses under the same keys', async () => {
    const { server, session } = setup((_request, nth) => ({ result: nth === 0 ? inputRequired({ confirm: CONFIRM, where: ROOTS }, 'opaque-1') : toolResult('deleted') }), { inputHandlers: HANDLERS });
    expect(await within(session.request('tools/call', { name: 'delete', arguments: { path: 'a' } }), 'request("tools/call")')).toEqual(toolResult('deleted'));
    const retry = paramsOf(server.requests('tools/call')[1]);
    expect(retry.inputResponses).toEqual({ confirm: { action: 'accept', content: { ok: true, about: 'Delete the file?' } }, where: { roots: [{ uri: 'file:///work', name: 'work' }] } });
  });

  it('echoes requestState exactly, and leaves it out when the server sent none', async () => {
    const state = 'eyJzdGVwIjoxfQ==.sig';
    const { server, session } = setup((_request, nth) => ({ result: nth === 0 ? inputRequired(undefined, state) : nth === 1 ? inputRequired({ confirm: CONFIRM }) : toolResult('ok') }), { inputHandlers: HANDLERS });
    await within(session.request('tools/call', { name: 'slow' }), 'request("tools/call")');
    const [, second, third] = server.requests('tools/call').map(paramsOf);
    expect(second?.requestState).toBe(state);
    expect(second && 'inputResponses' in second).toBe(false);
    expect(third && 'requestState' in third).toBe(false);
    expect(third?.inputResponses).toEqual({ confirm: { action: 'accept', content: { ok: true, about: 'Delete the file?' } } });
  });

  it('the retry is a new request: a new id, the original params, the envelope', async () => {
    const { server, session } = setup((_request, nth) => ({ result: nth === 0 ? inputRequired({ where: ROOTS }, 's') : toolResult('ok') }), { inputHandlers: HANDLERS });
    await within(session.request('resources/read', { uri: 'file:///notes.txt' }), 'request("resources/read")');
    const [first, second] = server.requests('resources/read');
    expect(second?.id).not.toEqual(first?.id);
    expect(paramsOf(second)).toMatchObject({ uri: 'file:///notes.txt', requestState: 's' });
    expect(metaOf(second)[META_PROTOCOL_VERSION]).toBe(MODERN);
  });

  it('no handler for an input request: InputRequiredError, and no retry', async () => {
    const { server, session } = setup(() => ({ result: inputRequired({ confirm: CONFIRM }, 's') }), { inputHandlers: { 'roots/list': HANDLERS['roots/list'] } });
    expect(await rejectionOf(() => session.request('tools/call', { name: 'delete' }), 'request("tools/call")')).toBeInstanceOf(InputRequiredError);
    expect(server.requests('tools/call')).toHaveLength(1);
    await expect(answerInputRequests('tools/call', inputRequired({ confirm: CONFIRM }), {})).rejects.toBeInstanceOf(InputRequiredError);
  });

  it('answers stay with their request: the next call starts without inputResponses', async () => {
    const { server, session } = setup((request) => ({ result: request.method === 'prompts/get' && !('inputResponses' in paramsOf(request)) ? inputRequired({ where: ROOTS }) : toolResult('ok') }), { inputHandlers: HANDLERS });
    await within(session.request('prompts/get', { name: 'p' }), 'the first prompts/get');
    await within(session.request('tools/call', { name: 'echo' }), 'the tools/call after it');
    expect(paramsOf(server.requests('tools/call')[0])).not.toHaveProperty('inputResponses');
  });

  it('a server that keeps asking gets maxInputRounds requests, then InputRequiredError', async () => {
    const { server, session } = setup(() => ({ result: inputRequired({ where: ROOTS }, 'again') }), { inputHandlers: HANDLERS, maxInputRounds: 3 });
    expect(await rejectionOf(() => session.request('tools/call', { name: 'loop' }), 'request("tools/call")')).toBeInstanceOf(InputRequiredError);
    expect(server.requests('tools/call')).toHaveLength(3);
  });
});

// ---- against the reference ----

type Step =
  | { kind: 'complete'; stamped: boolean }
  | { kind: 'input'; keys: string[]; state: string | undefined }
  | { kind: 'unsupported'; supported: string[] }
  | { kind: 'unknown-type' }
  | { kind: 'error' };

const INPUTS: Record<string, unknown> = { confirm: CONFIRM, where: ROOTS, ask: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('complete' as const), stamped: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('input' as const), keys: fc.subarray(Object.keys(INPUTS)), state: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unsupported' as const), supported: fc.subarray([NEXT, MODERN, '2025-11-25']) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unknown-type' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'error' as const }) },
);

const CALLS: Array<[string, Record<string, unknown> | undefined]> = [
  ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
  ['tools/list', undefined],
  ['resources/read', { uri: 'file:///a.txt' }],
  ['prompts/get', { name: 'greet', _meta: { progressToken: 1 } }],
];

const scenario = fc.record({
  versions: fc.constantFrom([MODERN], [NEXT, MODERN]),
  handlers: fc.subarray(Object.keys(HANDLERS) as Array<keyof InputHandlers>),
  maxInputRounds: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  calls: fc.array(fc.nat(CALLS.length - 1), { minLength: 1, maxLength: 4 }),
  steps: fc.array(step, { maxLength: 12 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function answerFor(value: Step | undefined, request: JsonRpcRequest): Answer {
  if (value === undefined || value.kind === 'complete') {
    const stamp = value?.stamped ? { resultType: 'complete', _meta: { [META_SERVER_INFO]: SERVER_INFO } } : {};
    return { result: request.method === 'tools/list' ? { tools: [], ...stamp } : { ...toolResult(`answer to ${String(request.id)}`), ...stamp } };
  }
  if (value.kind === 'input') return { result: inputRequired(value.keys.length === 0 ? undefined : Object.fromEntries(value.keys.map((key) => [key, INPUTS[key]])), value.state) };
  if (value.kind === 'unsupported') return unsupported(value.supported, String(metaOf(request)[META_PROTOCOL_VERSION]));
  if (value.kind === 'unknown-type') return { result: toolResult('?', 'pending') };
  return { error: { code: -32603, message: 'the tool broke' } };
}

function outcomeOf(error: unknown): unknown {
  if (error instanceof McpRpcError) return { error: 'McpRpcError', code: error.code };
  for (const kind of [ProtocolViolationError, InputRequiredError]) if (error instanceof kind) return { error: kind.name };
  return { error: 'something else', thrown: String(error) };
}

/** Plays `value` with a session of class `Session`: what it wrote, how each call ended, its version. */
async function play(Session: SessionClass, value: Scenario): Promise<unknown[]> {
  const handlers = Object.fromEntries(value.handlers.map((method) => [method, HANDLERS[method]]));
  const { server, session, versionChanges } = setup((request, nth) => answerFor(value.steps[nth], request), { version: value.versions[0], versions: value.versions, inputHandlers: handlers, ...(value.maxInputRounds === undefined ? {} : { maxInputRounds: value.maxInputRounds }) }, Session);
  const log: unknown[] = [];
  for (const index of value.calls) {
    const [method, params] = CALLS[index]!;
    let outcome: unknown;
    try {
      outcome = { value: await within(session.request(method, params), `request("${method}")`) };
    } catch (error) {
      outcome = outcomeOf(error);
    }
    log.push({ method, outcome, version: session.version, serverInfo: session.serverInfo });
  }
  log.push({ wrote: server.fromClient, versionChanges });
  return log;
}

describe('Any exchange', () => {
  it('for any answers and calls: writes the same requests, settles each call and keeps the same version as the reference', PROPERTY_TEST, async () => {
    const check = async (value: Scenario) => ({
      expected: await play(reference.ModernSession, value),
      actual: await play(ModernSession, value).catch((error: unknown) => [{ threw: String(error) }]),
    });
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(scenario, async (value) => {
        await pace();
        const { expected, actual } = await check(value);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 120, seed: 11 },
    );
    if (!details.failed || !details.counterexample) return;
    const [value] = details.counterexample;
    const { expected, actual } = await check(value);
    expect(actual, `for the scenario ${JSON.stringify(value)}`).toEqual(expected);
    throw new Error(`differs from the reference for the scenario ${JSON.stringify(value)} (only on some runs)`);
  });

  it('for any answers to the probe: sends the same probes, reaches the same verdict and version as the reference', PROPERTY_TEST, async () => {
    const probeAnswer = fc.oneof(
      fc.record({ result: fc.subarray([NEXT, MODERN, '2025-11-25']).map((supported) => discoverResult(supported)) }),
      fc.subarray([NEXT, MODERN, '2025-11-25', '2024-11-05']).map((supported) => unsupported(supported)),
      fc.constantFrom<Answer>({ error: { code: -32601, message: 'Method not found' } }, { error: { code: -32021, message: 'needs roots' } }, { result: { tools: [] } }),
    );
    const probes = fc.record({ versions: fc.constantFrom([MODERN], [NEXT, MODERN]), pin: fc.option(fc.constantFrom(MODERN, NEXT), { nil: undefined }), answers: fc.array(probeAnswer, { minLength: 2, maxLength: 2 }) });
    const playProbe = async (Session: SessionClass, value: typeof probes extends fc.Arbitrary<infer T> ? T : never) => {
      const { server, session } = setup((_request, nth) => value.answers[nth] ?? 'silence', { version: value.versions[0], versions: value.versions }, Session);
      const seen: unknown[] = [];
      const verdict = await within(
        session.discover({ transport: 'stdio', timeoutMs: 1000, ...(value.pin === undefined ? {} : { versions: [value.pin] }), onProbe: (version, outcome, probed) => seen.push({ version, outcome: outcome.kind, verdict: probed.kind }) }),
        'discover()',
      );
      const { kind } = verdict;
      return { wrote: server.fromClient, verdict: kind === 'modern' ? { kind, version: verdict.version, discover: verdict.discover } : { kind }, version: session.version, seen };
    };
    const check = async (value: typeof probes extends fc.Arbitrary<infer T> ? T : never) => ({
      expected: await playProbe(reference.ModernSession, value),
      actual: await playProbe(ModernSession, value).catch((error: unknown) => ({ threw: String(error) })),
    });
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(probes, async (value) => {
        await pace();
        const { expected, actual } = await check(value);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 100, seed: 5 },
    );
    if (!details.failed || !details.counterexample) return;
    const [value] = details.counterexample;
    const { expected, actual } = await check(value);
    expect(actual, `for the answers ${JSON.stringify(value)}`).toEqual(expected);
    throw new Error(`differs from the reference for the answers ${JSON.stringify(value)} (only on some runs)`);
  });
});
