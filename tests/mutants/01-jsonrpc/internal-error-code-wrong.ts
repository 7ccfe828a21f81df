import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "InternalError given a code from the server range",
  why: "-32000 to -32099 are for the implementation's own errors; -32603 is the one standard internal error, so a peer misreads the failure.",
  section: 'error-codes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  InternalError: -32603,`,
      replace: `  InternalError: -32000, // MUTANT`,
    },
  ],
  caughtBy: [
    "ErrorCode holds the five standard codes",
  ],
} satisfies Mutant;
