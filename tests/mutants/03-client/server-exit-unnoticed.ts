import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the server's exit not noticed",
  why: "Pending calls wait for answers that will never come, and the client still says it is ready.",
  section: 'closing',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `      transport.onClose((reason) => this.shutdown(\`the server closed the connection: \${reason}\`, false)),`,
      replace: `      transport.onClose(() => undefined), // MUTANT: the exit is ignored`,
    },
  ],
  caughtBy: [
    "when the server goes away, pending requests are rejected and the client is \"closed\"",
    "Any session › for any session: writes the same messages, goes through the same states and settles each call the same way as the reference",
  ],
} satisfies Mutant;
