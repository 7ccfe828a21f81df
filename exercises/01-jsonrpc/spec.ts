import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import * as reference from '@reference/jsonrpc';
import {
  ErrorCode,
  encodeError,
  encodeNotification,
  encodeRequest,
  encodeResult,
  idKey,
  isErrorResponse,
  isNotification,
  isRequest,
  isResponse,
  parseMessage,
  responseTo,
  validateMessage,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '@learner';

// The four shapes as they cross the wire, written out by hand so the tests do not depend on your builders.
const request = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const notification = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const success = '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}';
const failure = '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}';

/** parseMessage must accept `text` and hand back exactly the message it holds. */
function expectAccepted(text: string): void {
  expect(parseMessage(text), text).toEqual({ ok: true, message: JSON.parse(text) });
}

/** parseMessage must refuse `text` as an invalid request (-32600). */
function expectInvalidRequest(text: string): void {
  expect(parseMessage(text), text).toMatchObject({ ok: false, code: -32600 });
}

function message(text: string): JsonRpcMessage {
  return JSON.parse(text) as JsonRpcMessage;
}

describe('Building the three shapes', () => {
  it('encodeRequest builds { jsonrpc, id, method, params }, leaving params out when there are none', () => {
    expect(encodeRequest(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' } },
    });
    expect(encodeRequest('req-7', 'tools/list')).toStrictEqual({ jsonrpc: '2.0', id: 'req-7', method: 'tools/list' });
  });

  it('encodeRequest keeps id 0, the first id the official SDK client sends', () => {
    expect(encodeRequest(0, 'initialize', { protocolVersion: '2025-06-18' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18' },
    });
  });

  it('encodeNotification has no id key at all', () => {
    const built = encodeNotification('notifications/initialized');
    expect(built).toStrictEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect('id' in built).toBe(false);
    expect(encodeNotification('notifications/cancelled', { requestId: 3 })).toStrictEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 3 },
    });
  });

  it('encodeResult and encodeError build the two kinds of response', () => {
    expect(encodeResult(2, { tools: [] })).toStrictEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    expect(encodeResult(0, null)).toStrictEqual({ jsonrpc: '2.0', id: 0, result: null });
    expect(encodeError(3, -32601, 'Method not found')).toStrictEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } });
    expect(encodeError(4, -32602, 'Unknown tool', { name: 'nope' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'Unknown tool', data: { name: 'nope' } },
    });
  });
});

describe('Error codes', () => {
  it('ErrorCode holds the five standard codes', () => {
    // At least these five: an implementation may add codes of its own (say, -32002).
    expect(ErrorCode).toMatchObject({ ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 });
  });

  it('text that is not JSON is a parse error: -32700, with a null id', () => {
    for (const text of ['{"jsonrpc":"2.0","id":1,', 'hello', '']) {
      expect(parseMessage(text), JSON.stringify(text)).toMatchObject({ ok: false, code: -32700, id: null });
    }
  });

  it('JSON that is not a valid message is an invalid request: -32600, not -32700', () => {
    expectInvalidRequest('{"jsonrpc":"2.0"}');
    expectInvalidRequest('42');
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}');
  });

  it('an invalid request keeps its id when the id can be read, so the error response can be paired', () => {
    expect(parseMessage('{"jsonrpc":"1.0","id":7,"method":"ping"}')).toMatchObject({ ok: false, code: -32600, id: 7 });
    expect(parseMessage('{"jsonrpc":"2.0","id":0,"method":42}')).toMatchObject({ ok: false, code: -32600, id: 0 });
  });

  it('an error response may carry an implementation code (-32000 to -32099), and leaves id out when the request id could not be read', () => {
    // MCP's form omits the id; JSON-RPC's writes "id": null. A receiver accepts both.
    expect(encodeError(null, -32001, 'Server busy')).toStrictEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'Server busy' } });
    expect(encodeError(3, -32001, 'Server busy')).toStrictEqual({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'Server busy' } });
    expectAccepted('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}');
    expectAccepted('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
  });
});

describe('parseMessage accepts well-formed messages', () => {
  it('a request, a notification, a success response and an error response', () => {
    for (const text of [request, notification, success, failure]) expectAccepted(text);
  });

  it('id 0 is an ordinary id, in a request and in a response', () => {
    expectAccepted('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
    expectAccepted('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}');
    expectAccepted('{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unknown tool"}}');
  });

  it('string ids, params as an array, and a result that is null', () => {
    expectAccepted('{"jsonrpc":"2.0","id":"abc-1","method":"ping"}');
    expectAccepted('{"jsonrpc":"2.0","id":5,"method":"sum","params":[1,2]}');
    expectAccepted('{"jsonrpc":"2.0","id":"abc-1","result":null}');
  });

  it('validateMessage checks a value that is already parsed, as the frame reader hands it out', () => {
    expect(validateMessage({ jsonrpc: '2.0', id: 0, method: 'ping' })).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 0, method: 'ping' } });
    expect(validateMessage({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({ ok: false, code: -32600 });
  });
});

describe('parseMessage refuses malformed messages', () => {
  it('a request whose id is null', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":null,"method":"tools/list"}');
  });

  it('an id that is neither a string nor an integer', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":1.5,"method":"ping"}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":{},"method":"ping"}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":true,"result":{}}');
  });

  it('a missing or wrong "jsonrpc"', () => {
    expectInvalidRequest('{"id":1,"method":"ping"}');
    expectInvalidRequest('{"jsonrpc":"1.0","id":1,"method":"ping"}');
    expectInvalidRequest('{"jsonrpc":2,"id":1,"method":"ping"}');
  });

  it('a response carrying both result and error', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32603,"message":"Internal error"}}');
  });

  it('a response carrying neither result nor error', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":1}');
    expectInvalidRequest('{"jsonrpc":"2.0"}');
  });

  it('a result response without an id, or with a null one', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","result":{}}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":null,"result":{}}');
  });

  it('a method that is not a non-empty string, or params that are not an object or an array', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"method":42}');
    expectInvalidRequest('{"jsonrpc":"2.0","method":""}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}');
  });

  it('an error without an integer code and a string message', () => {
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"error":{"code":"-32600","message":"a string code"}}');
    expectInvalidRequest('{"jsonrpc":"2.0","id":1,"error":"just text"}');
  });

  it('a batch (a JSON array): MCP does not use batching', () => {
    expectInvalidRequest(`[${request},${notification}]`);
  });

  it('never throws, whatever the text', () => {
    for (const text of ['null', '"text"', '[]', '{"jsonrpc":"2.0","id":1,"error":null}', '\u0000']) {
      expect(() => parseMessage(text), JSON.stringify(text)).not.toThrow();
      expect(parseMessage(text).ok, JSON.stringify(text)).toBe(false);
    }
  });
});

describe('Telling messages apart', () => {
  it('each shape is exactly one of request, notification, response', () => {
    const table: Array<[string, boolean, boolean, boolean]> = [
      [request, true, false, false],
      [notification, false, true, false],
      [success, false, false, true],
      [failure, false, false, true],
    ];
    for (const [text, req, note, resp] of table) {
      const value = message(text);
      expect([isRequest(value), isNotification(value), isResponse(value)], text).toEqual([req, note, resp]);
    }
  });

  it('a request with id 0 is a request, not a notification, so it gets an answer', () => {
    const value = message('{"jsonrpc":"2.0","id":0,"method":"initialize"}');
    expect(isRequest(value)).toBe(true);
    expect(isNotification(value)).toBe(false);
  });

  it('a response whose result is null, 0 or false is still a response', () => {
    for (const text of ['{"jsonrpc":"2.0","id":1,"result":null}', '{"jsonrpc":"2.0","id":1,"result":0}', '{"jsonrpc":"2.0","id":0,"result":false}']) {
      expect(isResponse(message(text)), text).toBe(true);
    }
  });

  it('isErrorResponse tells a failure from a success', () => {
    expect(isErrorResponse(message(failure) as JsonRpcResponse)).toBe(true);
    expect(isErrorResponse(message(success) as JsonRpcResponse)).toBe(false);
  });
});

describe('Pairing a response with its request', () => {
  const sent = (id: string | number): JsonRpcRequest => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  const answer = (id: string | number): JsonRpcResponse => ({ jsonrpc: '2.0', id, result: {} });

  it('a response answers the request with the same id, whatever the order they arrive in', () => {
    expect(responseTo(answer(2), sent(2))).toBe(true);
    expect(responseTo(answer(3), sent(2))).toBe(false);
    expect(responseTo(answer('a'), sent('a'))).toBe(true);
  });

  it('id 1 and id "1" are different ids', () => {
    expect(responseTo(answer('1'), sent(1))).toBe(false);
    expect(responseTo(answer(1), sent('1'))).toBe(false);
  });

  it('id 0 pairs like any other id', () => {
    expect(responseTo(answer(0), sent(0))).toBe(true);
    expect(responseTo(answer(0), sent(''))).toBe(false);
  });

  it('an error response with no id, or a null one, answers no request', () => {
    const orphan: JsonRpcResponse = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    const nullOrphan: JsonRpcResponse = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    expect(responseTo(orphan, sent(0))).toBe(false);
    expect(responseTo(nullOrphan, sent(0))).toBe(false);
  });

  it('idKey gives one key per id and keeps the type apart', () => {
    expect(idKey(1)).toBe(idKey(1));
    expect(idKey(1)).not.toBe(idKey('1'));
    expect(idKey(0)).not.toBe(idKey('0'));
    expect(idKey(0)).not.toBe(idKey(''));
    expect(typeof idKey(0)).toBe('string');
  });
});

// ---- properties: generated messages, your codec against the reference ----
// Valid messages of every shape, and the same messages broken one field at a time (the fields the
// lesson names). Compared: accepted or refused, the code, the id a refusal reports when the
// message's id could be read, the message handed back, the classifiers, and pairing. Never the
// wording of a reason. Ids of messages whose id cannot be read, null ids, params arrays and
// non-object results are left to the named tests.

const RUNS = { numRuns: 100, seed: 1 };

async function sameAsReference<T>(inputs: fc.Arbitrary<T>, theirs: (input: T) => unknown, yours: (input: T) => unknown): Promise<void> {
  const attempt = (run: () => unknown) => {
    try {
      return run();
    } catch (error) {
      return { threw: String(error) };
    }
  };
  // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
  const pace = propertyPacer();
  const details = await fc.check(
    fc.asyncProperty(inputs, async (input) => {
      await pace();
      expect(attempt(() => yours(input))).toEqual(theirs(input));
    }),
    RUNS,
  );
  if (!details.failed || !details.counterexample) return;
  const [input] = details.counterexample;
  expect(attempt(() => yours(input)), `for ${JSON.stringify(input)}`).toEqual(theirs(input));
  throw new Error(`differs from the reference for ${JSON.stringify(input)} (only on some runs)`);
}

const validId = fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 1000 }), fc.constantFrom('1', '0', 'req-7', 'a'));
const anyMethod = fc.constantFrom('initialize', 'tools/list', 'tools/call', 'notifications/initialized', 'ping');
const anyObject = fc.constantFrom({}, { name: 'echo', arguments: { text: 'hi' } }, { tools: [] }, { nested: { deep: [1, 'two', null] } });
const errorObject = fc.record(
  { code: fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32001, -32099, 1, 0), message: fc.constantFrom('Method not found', '', '出错了'), data: fc.constantFrom({ detail: 1 }, 'why', 0) },
  { requiredKeys: ['code', 'message'] },
);
const validMessage = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: validId, method: anyMethod, params: anyObject }, { requiredKeys: ['jsonrpc', 'id', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: anyMethod, params: anyObject }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: validId, result: anyObject }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: validId, error: errorObject }),
) as fc.Arbitrary<Record<string, unknown>>;

/** One field broken the way the lesson's rules forbid; `idReadable` says whether the id still is. */
type Break = (message: Record<string, unknown>) => Record<string, unknown> | undefined;
const breaks: Record<string, Break> = {
  'no jsonrpc': ({ jsonrpc: _, ...rest }) => rest,
  'jsonrpc "1.0"': (message) => ({ ...message, jsonrpc: '1.0' }),
  'jsonrpc 2 as a number': (message) => ({ ...message, jsonrpc: 2 }),
  'jsonrpc "2"': (message) => ({ ...message, jsonrpc: '2' }),
  'jsonrpc "2.0 " with a space': (message) => ({ ...message, jsonrpc: '2.0 ' }),
  'empty method': (message) => ('method' in message ? { ...message, method: '' } : undefined),
  'method not a string': (message) => ('method' in message ? { ...message, method: 42 } : undefined),
  'params a string': (message) => ('method' in message ? { ...message, params: 'x' } : undefined),
  'params a number': (message) => ('method' in message ? { ...message, params: 5 } : undefined),
  'params null': (message) => ('method' in message ? { ...message, params: null } : undefined),
  'params a boolean': (message) => ('method' in message ? { ...message, params: true } : undefined),
  'result and error': (message) => ('id' in message && !('method' in message) ? { ...message, result: {}, error: { code: -32603, message: 'x' } } : undefined),
  'neither result nor error': ({ result: _r, error: _e, ...rest }) => ('id' in rest && !('method' in rest) ? rest : undefined),
  'a request carrying a result': (message) => ('method' in message ? { ...message, result: {} } : undefined),
  'error code a string': (message) => ('error' in message ? { ...message, error: { code: '-32601', message: 'x' } } : undefined),
  'error code not an integer': (message) => ('error' in message ? { ...message, error: { code: -32601.5, message: 'x' } } : undefined),
  'error without a message': (message) => ('error' in message ? { ...message, error: { code: -32601 } } : undefined),
  'error message not a string': (message) => ('error' in message ? { ...message, error: { code: -32601, message: 42 } } : undefined),
  'error not an object': (message) => ('error' in message ? { ...message, error: 'boom' } : undefined),
};
const idBreaks: Record<string, Break> = {
  'id a fraction': (message) => ('id' in message ? { ...message, id: 1.5 } : undefined),
  'id a boolean': (message) => ('id' in message ? { ...message, id: true } : undefined),
  'id an object': (message) => ('id' in message ? { ...message, id: { n: 1 } } : undefined),
};
const breakOf = (name: string): Break => (breaks[name] ?? idBreaks[name])!;
// The break is chosen among those that apply to the message (an error break needs an error…), so
// every broken case really is broken, however many kinds of break there are.
const anyValue = validMessage.chain((message) => {
  const applicable = [...Object.keys(breaks), ...Object.keys(idBreaks)].filter((name) => breakOf(name)(message) !== undefined);
  return fc.option(fc.constantFrom(...applicable), { nil: undefined, freq: 3 }).map((broken) => ({ value: broken === undefined ? message : breakOf(broken)(message)!, broken }));
});

/** What the lesson defines about a parse outcome. */
function observedOutcome(outcome: unknown, value: unknown, broken: string | undefined): unknown {
  if (typeof outcome !== 'object' || outcome === null || !('ok' in outcome)) return { notAnOutcome: outcome };
  const o = outcome as { ok: boolean; code?: number; id?: unknown; message?: unknown };
  if (o.ok) return { ok: true, message: o.message };
  const idReadable = !(broken !== undefined && broken in idBreaks) && typeof value === 'object' && value !== null && 'id' in value;
  return idReadable ? { ok: false, code: o.code, id: o.id } : { ok: false, code: o.code };
}

function classified(codec: { isRequest(m: JsonRpcMessage): boolean; isNotification(m: JsonRpcMessage): boolean; isResponse(m: JsonRpcMessage): boolean; isErrorResponse(m: JsonRpcResponse): boolean }, message: JsonRpcMessage): unknown {
  const response = codec.isResponse(message);
  return { request: codec.isRequest(message), notification: codec.isNotification(message), response, error: response ? codec.isErrorResponse(message as JsonRpcResponse) : undefined };
}

describe('parseMessage accepts well-formed messages', () => {
  it('for any message, valid or broken in one field: parseMessage and validateMessage decide as the reference does', PROPERTY_TEST, async () => {
    await sameAsReference(
      anyValue,
      ({ value, broken }) => [observedOutcome(reference.parseMessage(JSON.stringify(value)), value, broken), observedOutcome(reference.validateMessage(value), value, broken)],
      ({ value, broken }) => [observedOutcome(parseMessage(JSON.stringify(value)), value, broken), observedOutcome(validateMessage(value), value, broken)],
    );
  });
});

describe('parseMessage refuses malformed messages', () => {
  it('for any text that is not JSON, or JSON that is not one message: the same code as the reference', PROPERTY_TEST, async () => {
    const notOneMessage = fc.oneof(
      validMessage.map((message) => JSON.stringify(message).slice(0, -1)),
      fc.constantFrom('hello', '', '{', '[', 'nul'),
      fc.constantFrom(42, 'text', null, true).map((value) => JSON.stringify(value)),
      validMessage.map((message) => JSON.stringify([message])),
    );
    await sameAsReference(notOneMessage, (text) => observedOutcome(reference.parseMessage(text), undefined, undefined), (text) => observedOutcome(parseMessage(text), undefined, undefined));
  });
});

describe('Building the three shapes', () => {
  it('for any id, method, params, result and error: builds the same messages as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(
      fc.record({ id: validId, method: anyMethod, params: fc.option(anyObject, { nil: undefined }), result: anyObject, error: errorObject }),
      ({ id, method, params, result, error }) => [reference.encodeRequest(id, method, params), reference.encodeNotification(method, params), reference.encodeResult(id, result), reference.encodeError(id, error.code, error.message, error.data)],
      ({ id, method, params, result, error }) => [encodeRequest(id, method, params), encodeNotification(method, params), encodeResult(id, result), encodeError(id, error.code, error.message, error.data)],
    );
  });
});

describe('Telling messages apart', () => {
  it('for any valid message: classified exactly as the reference classifies it', PROPERTY_TEST, async () => {
    await sameAsReference(validMessage, (message) => classified(reference, message as unknown as JsonRpcMessage), (message) => classified({ isRequest, isNotification, isResponse, isErrorResponse }, message as unknown as JsonRpcMessage));
  });
});

describe('Pairing a response with its request', () => {
  it('for any two ids: responseTo pairs them, and idKey tells them apart, as the reference does', PROPERTY_TEST, async () => {
    await sameAsReference(
      fc.tuple(validId, validId, fc.boolean()),
      ([a, b, failed]) => {
        const response = failed ? reference.encodeError(a, -32601, 'x') : reference.encodeResult(a, {});
        return { pairs: reference.responseTo(response, reference.encodeRequest(b, 'ping')), sameKey: reference.idKey(a) === reference.idKey(b) };
      },
      ([a, b, failed]) => {
        const response = failed ? reference.encodeError(a, -32601, 'x') : reference.encodeResult(a, {});
        return { pairs: responseTo(response, reference.encodeRequest(b, 'ping')), sameKey: idKey(a) === idKey(b) };
      },
    );
  });
});
