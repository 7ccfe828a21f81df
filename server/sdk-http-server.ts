// An MCP echo server over Streamable HTTP built with the OFFICIAL SDK 1.32.2
// (WebStandardStreamableHTTPServerTransport, one per session; src/runtime/sdk-http-echo.ts): "Check
// my client" in its HTTP mode points the learner's exercise-6 transport at it. Loopback only; the
// handler refuses Hosts and Origins that are not loopback names (DNS rebinding). Prints its URL on
// stdout once it listens (the relay tap learns the port from that line and nothing else); logs go
// to stderr.
//
//   node sdk-http-server.mjs          (no options: port 0, the OS picks)

import { createServer } from 'node:http';
import { createSdkHttpHandler } from '../src/runtime/sdk-http-echo.ts';
import { nodeListener } from './http-node-adapter.ts';
import { stderrLogger } from './stdio-session.ts';

const PROGRAM = 'sdk-http-server';
const log = stderrLogger(`[${PROGRAM}]`);

if (process.argv.length > 2) {
  process.stderr.write(`usage: node ${PROGRAM}.mjs   (no options)\n`);
  process.exit(2);
}
const handler = createSdkHttpHandler();
const server = createServer(nodeListener(handler, { log }));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
  log(`pid ${process.pid}, the official SDK 1.32.2 StreamableHTTP server (echo), listening on 127.0.0.1:${port}`);
});
const stop = () => {
  log('stopping');
  handler.closeAll();
  server.close();
  server.closeAllConnections();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
