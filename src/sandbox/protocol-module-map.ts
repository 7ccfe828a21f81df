// Every reference module under the id learner code imports it by ('@protocol/jsonrpc'), as static
// imports. The learner-server runner is bundled by esbuild for bare Node (and the WebContainer),
// where Vite's import.meta.glob does not exist; the in-browser learner-server worker uses the same
// map so all three hosts resolve a learner's imports identically. protocol-module-map.test.ts
// checks it against the files in src/protocol, so a new module cannot be forgotten.

import type { ProtocolModules } from './protocol-modules.ts';
import * as bridge from '../protocol/bridge.ts';
import * as clientErrors from '../protocol/client-errors.ts';
import * as clientEvents from '../protocol/client-events.ts';
import * as clientResultChecks from '../protocol/client-result-checks.ts';
import * as client from '../protocol/client.ts';
import * as echoTools from '../protocol/echo-tools.ts';
import * as faults from '../protocol/faults.ts';
import * as contentLength from '../protocol/framing/content-length.ts';
import * as headerLine from '../protocol/framing/header-line.ts';
import * as framingIndex from '../protocol/framing/index.ts';
import * as jsonBody from '../protocol/framing/json-body.ts';
import * as ndjson from '../protocol/framing/ndjson.ts';
import * as pendingBytes from '../protocol/framing/pending-bytes.ts';
import * as framingTypes from '../protocol/framing/types.ts';
import * as jsonrpc from '../protocol/jsonrpc.ts';
import * as mcpResultToText from '../protocol/mcp-result-to-text.ts';
import * as mcp from '../protocol/mcp.ts';
import * as pendingRequests from '../protocol/pending-requests.ts';
import * as registerMcpTools from '../protocol/register-mcp-tools.ts';
import * as registry from '../protocol/registry.ts';
import * as schemaToParams from '../protocol/schema-to-params.ts';
import * as serverSession from '../protocol/server-session.ts';
import * as server from '../protocol/server.ts';
import * as transport from '../protocol/transport.ts';
import * as validateArguments from '../protocol/validate-arguments.ts';

export const PROTOCOL_MODULE_MAP: ProtocolModules = {
  '@protocol/bridge': bridge,
  '@protocol/client-errors': clientErrors,
  '@protocol/client-events': clientEvents,
  '@protocol/client-result-checks': clientResultChecks,
  '@protocol/client': client,
  '@protocol/echo-tools': echoTools,
  '@protocol/faults': faults,
  '@protocol/framing/content-length': contentLength,
  '@protocol/framing/header-line': headerLine,
  '@protocol/framing/index': framingIndex,
  '@protocol/framing/json-body': jsonBody,
  '@protocol/framing/ndjson': ndjson,
  '@protocol/framing/pending-bytes': pendingBytes,
  '@protocol/framing/types': framingTypes,
  '@protocol/jsonrpc': jsonrpc,
  '@protocol/mcp-result-to-text': mcpResultToText,
  '@protocol/mcp': mcp,
  '@protocol/pending-requests': pendingRequests,
  '@protocol/register-mcp-tools': registerMcpTools,
  '@protocol/registry': registry,
  '@protocol/schema-to-params': schemaToParams,
  '@protocol/server-session': serverSession,
  '@protocol/server': server,
  '@protocol/transport': transport,
  '@protocol/validate-arguments': validateArguments,
};
