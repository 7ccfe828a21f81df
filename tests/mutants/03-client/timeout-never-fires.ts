import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "no timer: a call nobody answers waits forever",
  why: "A server that hangs hangs the client with it: without a timeout the call never settles.",
  section: 'timeouts',
  file: 'src/protocol/pending-requests.ts',
  edits: [
    {
      find: `      if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0) {`,
      replace: `      if (timeoutMs === -1) { // MUTANT: the timer is never started`,
    },
  ],
  caughtBy: [
    "a call nobody answers rejects with RequestTimeoutError after its timeout",
  ],
} satisfies Mutant;
