// Every reference module under the id learner code imports it by ('@protocol/jsonrpc'), as static
// imports. The learner-server runner is bundled by esbuild for bare Node (and the WebContainer),
// where Vite's import.meta.glob does not exist; the in-browser learner-server worker uses the same
// map so all three hosts resolve a learner's imports identically. protocol-module-map.node.test.ts
// checks it against the files in src/protocol, so a new module cannot be forgotten.

import type { ProtocolModules } from './protocol-modules.ts';
import * as remoteTools from '../protocol/remote-tools.ts';
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
import * as featuresConformanceFixtures from '../protocol/features/conformance-fixtures.ts';
import * as featuresDemoServer from '../protocol/features/demo-server.ts';
import * as featuresFeatureServer from '../protocol/features/feature-server.ts';
import * as featuresTypes from '../protocol/features/types.ts';
import * as featuresUriTemplate from '../protocol/features/uri-template.ts';
import * as framingSse from '../protocol/framing/sse.ts';
import * as httpByteConnection from '../protocol/http/byte-connection.ts';
import * as httpClientPipe from '../protocol/http/client-pipe.ts';
import * as httpClientTransport from '../protocol/http/client-transport.ts';
import * as httpStreamableClient from '../protocol/http/streamable-client.ts';
import * as httpEventStream from '../protocol/http/event-stream.ts';
import * as httpHttpLayout from '../protocol/http/http-layout.ts';
import * as httpHttpMessageReader from '../protocol/http/http-message-reader.ts';
import * as httpHttp1Exchange from '../protocol/http/http1-exchange.ts';
import * as httpHttp1Reader from '../protocol/http/http1-reader.ts';
import * as httpHttp1Server from '../protocol/http/http1-server.ts';
import * as httpHttp1Writer from '../protocol/http/http1-writer.ts';
import * as httpIdleSweeper from '../protocol/http/idle-sweeper.ts';
import * as httpInProcess from '../protocol/http/in-process.ts';
import * as httpPushStream from '../protocol/http/push-stream.ts';
import * as httpRequestChecks from '../protocol/http/request-checks.ts';
import * as httpResponseBody from '../protocol/http/response-body.ts';
import * as httpServerHandler from '../protocol/http/server-handler.ts';
import * as httpServerSession from '../protocol/http/server-session.ts';
import * as httpTestHelpers from '../protocol/http/test-helpers.ts';
import * as propertyRuns from '../protocol/property-runs.ts';
import * as httpTypes from '../protocol/http/types.ts';
import * as serverRequests from '../protocol/server-requests.ts';
import * as toolProgress from '../protocol/tool-progress.ts';
import * as eraMeta from '../protocol/era/meta.ts';
import * as eraRpcChannel from '../protocol/era/rpc-channel.ts';
import * as eraErrors from '../protocol/era/era-errors.ts';
import * as eraInputRequests from '../protocol/era/input-requests.ts';
import * as eraProbe from '../protocol/era/probe.ts';
import * as eraModernSession from '../protocol/era/modern-session.ts';
import * as eraCache from '../protocol/era/era-cache.ts';
import * as eraDualEraClient from '../protocol/era/dual-era-client.ts';
import * as eraStatelessClient from '../protocol/era/stateless-client.ts';
import * as eraLocalFailure from '../protocol/era/local-failure.ts';
import * as httpParamHeaders from '../protocol/http/param-headers.ts';
import * as httpModernClientTransport from '../protocol/http/modern-client-transport.ts';
import * as eraTypes from '../protocol/era/types.ts';
import * as eraRequestState from '../protocol/era/request-state.ts';
import * as eraModernServer from '../protocol/era/modern-server.ts';
import * as eraLegacyBridge from '../protocol/era/legacy-bridge.ts';
import * as eraDualEraServer from '../protocol/era/dual-era-server.ts';
import * as eraConformanceFixtures from '../protocol/era/conformance-fixtures.ts';
import * as eraEcho from '../protocol/era/echo.ts';
import * as authWwwAuthenticate from '../protocol/auth/www-authenticate.ts';
import * as authDiscoveryUrls from '../protocol/auth/discovery-urls.ts';
import * as authHttpUrl from '../protocol/auth/http-url.ts';
import * as authPkce from '../protocol/auth/pkce.ts';
import * as authServerMetadata from '../protocol/auth/server-metadata.ts';
import * as authAuthError from '../protocol/auth/auth-error.ts';
import * as authJsonExchange from '../protocol/auth/json-exchange.ts';
import * as authResource from '../protocol/auth/resource.ts';
import * as authDiscovery from '../protocol/auth/discovery.ts';
import * as authClientIdentity from '../protocol/auth/client-identity.ts';
import * as authAuthorizationRequest from '../protocol/auth/authorization-request.ts';
import * as authTokenRequest from '../protocol/auth/token-request.ts';
import * as authFlow from '../protocol/auth/flow.ts';
import * as authAuthorizingExchange from '../protocol/auth/authorizing-exchange.ts';
import * as authProtectedResource from '../protocol/auth/protected-resource.ts';
import * as authAuthorizationClient from '../protocol/auth/authorization-client.ts';
import * as authClientSteps from '../protocol/auth/client-steps.ts';
import * as base64 from '../protocol/base64.ts';
import * as authToolScopes from '../protocol/auth/tool-scopes.ts';
import * as eraSession from '../protocol/era/session.ts';
import * as httpModernRules from '../protocol/http/modern-rules.ts';
import * as httpDualEraHandler from '../protocol/http/dual-era-handler.ts';

export const PROTOCOL_MODULE_MAP: ProtocolModules = {
  '@protocol/auth/www-authenticate': authWwwAuthenticate,
  '@protocol/auth/discovery-urls': authDiscoveryUrls,
  '@protocol/auth/http-url': authHttpUrl,
  '@protocol/auth/pkce': authPkce,
  '@protocol/auth/server-metadata': authServerMetadata,
  '@protocol/auth/auth-error': authAuthError,
  '@protocol/auth/json-exchange': authJsonExchange,
  '@protocol/auth/resource': authResource,
  '@protocol/auth/discovery': authDiscovery,
  '@protocol/auth/client-identity': authClientIdentity,
  '@protocol/auth/authorization-request': authAuthorizationRequest,
  '@protocol/auth/token-request': authTokenRequest,
  '@protocol/auth/flow': authFlow,
  '@protocol/auth/authorizing-exchange': authAuthorizingExchange,
  '@protocol/auth/protected-resource': authProtectedResource,
  '@protocol/auth/authorization-client': authAuthorizationClient,
  '@protocol/auth/client-steps': authClientSteps,
  '@protocol/base64': base64,
  '@protocol/auth/tool-scopes': authToolScopes,
  '@protocol/remote-tools': remoteTools,
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
  '@protocol/features/conformance-fixtures': featuresConformanceFixtures,
  '@protocol/features/demo-server': featuresDemoServer,
  '@protocol/features/feature-server': featuresFeatureServer,
  '@protocol/features/types': featuresTypes,
  '@protocol/features/uri-template': featuresUriTemplate,
  '@protocol/framing/sse': framingSse,
  '@protocol/http/byte-connection': httpByteConnection,
  '@protocol/http/client-pipe': httpClientPipe,
  '@protocol/http/client-transport': httpClientTransport,
  '@protocol/http/streamable-client': httpStreamableClient,
  '@protocol/http/event-stream': httpEventStream,
  '@protocol/http/http-layout': httpHttpLayout,
  '@protocol/http/http-message-reader': httpHttpMessageReader,
  '@protocol/http/http1-exchange': httpHttp1Exchange,
  '@protocol/http/http1-reader': httpHttp1Reader,
  '@protocol/http/http1-server': httpHttp1Server,
  '@protocol/http/http1-writer': httpHttp1Writer,
  '@protocol/http/idle-sweeper': httpIdleSweeper,
  '@protocol/http/in-process': httpInProcess,
  '@protocol/http/push-stream': httpPushStream,
  '@protocol/http/request-checks': httpRequestChecks,
  '@protocol/http/response-body': httpResponseBody,
  '@protocol/http/server-handler': httpServerHandler,
  '@protocol/http/server-session': httpServerSession,
  '@protocol/http/test-helpers': httpTestHelpers,
  '@protocol/property-runs': propertyRuns,
  '@protocol/http/types': httpTypes,
  '@protocol/server-requests': serverRequests,
  '@protocol/tool-progress': toolProgress,
  '@protocol/era/meta': eraMeta,
  '@protocol/era/rpc-channel': eraRpcChannel,
  '@protocol/era/era-errors': eraErrors,
  '@protocol/era/input-requests': eraInputRequests,
  '@protocol/era/probe': eraProbe,
  '@protocol/era/modern-session': eraModernSession,
  '@protocol/era/era-cache': eraCache,
  '@protocol/era/dual-era-client': eraDualEraClient,
  '@protocol/era/stateless-client': eraStatelessClient,
  '@protocol/era/local-failure': eraLocalFailure,
  '@protocol/http/param-headers': httpParamHeaders,
  '@protocol/http/modern-client-transport': httpModernClientTransport,
  '@protocol/era/types': eraTypes,
  '@protocol/era/request-state': eraRequestState,
  '@protocol/era/modern-server': eraModernServer,
  '@protocol/era/legacy-bridge': eraLegacyBridge,
  '@protocol/era/dual-era-server': eraDualEraServer,
  '@protocol/era/conformance-fixtures': eraConformanceFixtures,
  '@protocol/era/echo': eraEcho,
  '@protocol/era/session': eraSession,
  '@protocol/http/modern-rules': httpModernRules,
  '@protocol/http/dual-era-handler': httpDualEraHandler,
};
