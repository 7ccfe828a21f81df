import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'replying to a notification',
  why: 'Every notification is "acknowledged" with a response nobody waits for, so the client receives an orphan response it cannot pair with any request (the chapter\'s notification rule).',
  section: 'notifications',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `  type JsonRpcFailure,
`,
      replace: `  type JsonRpcFailure,
  type JsonRpcId,
`,
    },
    {
      find: `      this.#onNotification(message);
      return null;`,
      replace: `      this.#onNotification(message);
      // BUG: notifications get an answer; with no id to echo, it carries null.
      return { jsonrpc: '2.0', id: null as unknown as JsonRpcId, result: {} };`,
    },
  ],
  caughtBy: [
    'notifications/initialized gets no response: handle() resolves to null',
    'a notification before initialize is not answered either',
  ],
} satisfies Mutant;
