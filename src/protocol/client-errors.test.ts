import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ClientStateError,
  McpClientError,
  McpRpcError,
  ProtocolViolationError,
  RequestTimeoutError,
  UnsupportedVersionError,
} from './client-errors.ts';

describe('client errors', () => {
  it('each says what went wrong and what to do, and shares one base class', () => {
    const errors: Array<[Error, string, RegExp]> = [
      [new ClientStateError('tools/call', 'new'), 'ClientStateError', /Cannot tools\/call while the client is "new": finish the handshake first: call connect\(\)/],
      [new ClientStateError('tools/call', 'initialized'), 'ClientStateError', /call notifyInitialized\(\) first/],
      [new ClientStateError('initialize', 'new', 'already in flight'), 'ClientStateError', /"new": already in flight\.$/],
      [new UnsupportedVersionError('1999-01-01', ['2025-06-18', '2025-11-25']), 'UnsupportedVersionError', /"1999-01-01".*supported: 2025-06-18, 2025-11-25.*disconnected/],
      [new McpRpcError('tools/call', -32602, 'Unknown tool: x'), 'McpRpcError', /^tools\/call failed with JSON-RPC error -32602: Unknown tool: x$/],
      [new RequestTimeoutError('tools/call', 0, 60_000), 'RequestTimeoutError', /^tools\/call \(id 0\) got no response within 60000 ms\.$/],
      [new RequestTimeoutError('ping', '7', 10), 'RequestTimeoutError', /\(id "7"\)/],
      [new ClientClosedError('ping', 'closed by the client'), 'ClientClosedError', /^ping cannot complete: the client is closed \(closed by the client\)\.$/],
      [new ProtocolViolationError('tools/list', '"tools" is missing'), 'ProtocolViolationError', /^tools\/list: the server broke the protocol: "tools" is missing\.$/],
    ];
    for (const [error, name, message] of errors) {
      expect(error).toBeInstanceOf(McpClientError);
      expect(error.name).toBe(name);
      expect(error.message).toMatch(message);
    }
  });
});
