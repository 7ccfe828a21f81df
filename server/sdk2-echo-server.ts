// An MCP echo server built with the OFFICIAL SDK 2.4.0, not with anything in this project: "Check
// my client" points the learner's client at it. serveStdio serves both eras by default (initialize
// opens a handshake-era session); --era=modern is its modern mode (legacy: 'reject'), where
// initialize is refused with -32022.
//
//   node sdk2-echo-server.mjs [--era=modern]      (newline-delimited JSON on stdio)

import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { SDK2_ECHO_READY_LINE, createSdk2EchoServer } from '../src/runtime/sdk2-echo-tool.ts';

const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--era=modern')) {
  process.stderr.write('usage: node sdk2-echo-server.mjs [--era=modern]\n');
  process.exit(2);
}
const modern = args.includes('--era=modern');
// The same line the in-browser worker prints (sdk2-echo-serving.ts): the hosts look alike.
process.stderr.write(`${SDK2_ECHO_READY_LINE}\n`);
serveStdio(() => createSdk2EchoServer(), { legacy: modern ? 'reject' : 'serve' });
