import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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
} from './jsonrpc.ts';

function parsed(text: string): JsonRpcMessage {
  const outcome = parseMessage(text);
  if (!outcome.ok) throw new Error(`expected a valid message, got: ${outcome.reason}`);
  return outcome.message;
}

describe('builders', () => {
  it('build the four wire shapes and leave out absent params', () => {
    expect(encodeRequest(0, 'tools/list')).toEqual({ jsonrpc: '2.0', id: 0, method: 'tools/list' });
    expect(encodeRequest('a', 'tools/call', { name: 'echo' })).toEqual({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo' } });
    expect(encodeNotification('notifications/initialized')).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(encodeResult(3, { tools: [] })).toEqual({ jsonrpc: '2.0', id: 3, result: { tools: [] } });
    // MCP leaves the id out when the request's id could not be read (JSON-RPC would write null).
    expect(encodeError(null, ErrorCode.ParseError, 'Parse error')).toStrictEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    expect(encodeError(4, -32602, 'Unknown tool', { name: 'nope' }).error.data).toEqual({ name: 'nope' });
  });

  it('keeps a null result: "result": null is still a success response', () => {
    const text = JSON.stringify(encodeResult(1, null));
    expect(text).toBe('{"jsonrpc":"2.0","id":1,"result":null}');
    expect(isResponse(parsed(text))).toBe(true);
  });

  it('uses the standard error codes', () => {
    expect(ErrorCode).toEqual({ ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 });
  });
});

describe('parseMessage', () => {
  it('accepts an error response whose request id could not be read, without an id (MCP) or with a null one (JSON-RPC)', () => {
    for (const text of ['{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}', '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}']) {
      const outcome = parseMessage(text);
      expect(outcome.ok, text).toBe(true);
      if (outcome.ok) expect(isResponse(outcome.message)).toBe(true);
    }
    expect(parseMessage('{"jsonrpc":"2.0","result":{}}')).toMatchObject({ ok: false, code: ErrorCode.InvalidRequest });
  });

  it('says what an id with nothing else lacks under either reading', () => {
    const outcome = parseMessage('{"jsonrpc":"2.0","id":5}');
    expect(outcome).toMatchObject({ ok: false, code: ErrorCode.InvalidRequest, id: 5 });
    if (!outcome.ok) expect(outcome.reason).toMatch(/"method".*"result" or "error"/);
  });

  it('reports text that is not JSON as -32700 with a null id', () => {
    const outcome = parseMessage('{"jsonrpc":"2.0",');
    expect(outcome).toMatchObject({ ok: false, code: ErrorCode.ParseError, id: null });
  });

  it.each([
    ['an array (batch)', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
    ['a number', '42'],
    ['wrong version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ['no id and no method', '{"jsonrpc":"2.0"}'],
    ['a null request id', '{"jsonrpc":"2.0","id":null,"method":"ping"}'],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ['an object id', '{"jsonrpc":"2.0","id":{},"method":"ping"}'],
    ['an empty method', '{"jsonrpc":"2.0","id":1,"method":""}'],
    ['scalar params', '{"jsonrpc":"2.0","id":1,"method":"ping","params":3}'],
    ['both result and error', '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}'],
    ['neither result nor error', '{"jsonrpc":"2.0","id":1}'],
    ['a success with a null id', '{"jsonrpc":"2.0","id":null,"result":{}}'],
    ['a success without an id', '{"jsonrpc":"2.0","result":{}}'],
    ['an error with a string code', '{"jsonrpc":"2.0","id":1,"error":{"code":"-32600","message":"x"}}'],
    ['an error with a fractional code', '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}'],
    ['an error without a message', '{"jsonrpc":"2.0","id":1,"error":{"code":-32600}}'],
    ['a request that also has a result', '{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}'],
  ])('refuses %s as -32600', (_name, text) => {
    expect(parseMessage(text)).toMatchObject({ ok: false, code: ErrorCode.InvalidRequest });
  });

  it('keeps the id of an invalid request when it can be read, so the error can be paired', () => {
    expect(parseMessage('{"jsonrpc":"1.0","id":7,"method":"ping"}')).toMatchObject({ ok: false, id: 7 });
    expect(parseMessage('{"jsonrpc":"2.0","id":"x","method":5}')).toMatchObject({ ok: false, id: 'x' });
  });

  it('accepts id 0 and string ids as ordinary ids', () => {
    const zero = parsed('{"jsonrpc":"2.0","id":0,"method":"tools/list"}');
    expect(isRequest(zero)).toBe(true);
    expect(isNotification(zero)).toBe(false);
    expect(isRequest(parsed('{"jsonrpc":"2.0","id":"","method":"ping"}'))).toBe(true);
  });

  it('accepts an error response with a null id (the answer to unparseable input)', () => {
    const message = parsed('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
    expect(isResponse(message) && isErrorResponse(message)).toBe(true);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const outcome = parseMessage(text);
        expect(typeof outcome.ok).toBe('boolean');
      }),
    );
  });

  it('validateMessage agrees with parseMessage on parsed values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validateMessage(value).ok).toBe(parseMessage(JSON.stringify(value)).ok);
      }),
    );
  });
});

describe('classifiers', () => {
  it('tell the three shapes apart', () => {
    const request = parsed('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
    const notification = parsed('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const response = parsed('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect([isRequest(request), isNotification(request), isResponse(request)]).toEqual([true, false, false]);
    expect([isRequest(notification), isNotification(notification), isResponse(notification)]).toEqual([false, true, false]);
    expect([isRequest(response), isNotification(response), isResponse(response)]).toEqual([false, false, true]);
  });
});

describe('pairing', () => {
  it('pairs by id and id type, not by arrival order', () => {
    const first = encodeRequest(1, 'tools/list');
    const second = encodeRequest(2, 'tools/call');
    const answerToSecond = encodeResult(2, {});
    expect(responseTo(answerToSecond, second)).toBe(true);
    expect(responseTo(answerToSecond, first)).toBe(false);
    expect(responseTo(encodeResult('1', {}), first)).toBe(false);
    expect(responseTo(encodeError(null, -32700, 'x'), first)).toBe(false);
  });

  it('gives 0 a key of its own and keeps 1 and "1" apart', () => {
    expect(idKey(0)).not.toBe(idKey('0'));
    expect(idKey(1)).not.toBe(idKey('1'));
    expect(idKey(0)).toBe(idKey(0));
  });
});
