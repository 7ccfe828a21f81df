import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'closing without EOF',
  why: "close() forgets to end the server's stdin, the stdio transport's only way to say goodbye: the server process never learns the session is over.",
  section: 'closing',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "    this.shutdown('closed by the client', true);",
      replace: "    this.shutdown('closed by the client', false); // BUG: stdin is never ended",
    },
  ],
  caughtBy: [
    'close() ends the server\'s stdin, moves to "closed" and rejects every pending request with ClientClosedError',
    'close() works in "new" too, and calling it twice is harmless',
  ],
} satisfies Mutant;
