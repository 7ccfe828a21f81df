import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "without a retry the client waits nothing, not defaultRetryMs",
  why: "With no retry field the client reconnects at once instead of after the default delay.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    let retryMs = this.retryDefault;", replace: "    let retryMs = 0; // MUTANT" },
  ],
  caughtBy: ["without a retry from the server, waits defaultRetryMs"],
} satisfies Mutant;
