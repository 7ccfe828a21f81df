import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a timeout rejected with a plain Error",
  why: "The caller cannot tell a timeout from any other failure, so it cannot retry or report it as one.",
  section: 'timeouts',
  file: 'src/protocol/pending-requests.ts',
  edits: [
    {
      find: `          reject(new RequestTimeoutError(method, id, timeoutMs));`,
      replace: `          reject(new Error(\`\${method} timed out\`)); // MUTANT: not a RequestTimeoutError`,
    },
  ],
  caughtBy: [
    "a call nobody answers rejects with RequestTimeoutError after its timeout",
  ],
} satisfies Mutant;
