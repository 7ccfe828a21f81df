import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'tool calls sent before the handshake completes',
  why: 'The ready check only refuses a closed client, so tools/list and tools/call go out in "new" and "initialized", before notifications/initialized (the chapter\'s initialization-order trap).',
  section: 'ready-gate',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "    if (this.currentState !== 'ready') throw this.stateError(operation);",
      replace: `    // BUG: anything but 'closed' is let through, including 'new' and 'initialized'.
    if (this.currentState === 'closed') throw this.stateError(operation);`,
    },
  ],
  caughtBy: [
    'in "new", callTool() and listTools() are refused with ClientStateError and nothing is sent',
    'in "initialized" (answered, but notifications/initialized not sent yet) tool calls are still refused',
  ],
} satisfies Mutant;
