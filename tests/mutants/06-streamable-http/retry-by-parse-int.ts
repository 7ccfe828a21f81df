import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "retry is read with parseInt, so '2s' or '-1' change the delay",
  why: "The standard ignores a retry that is not all ASCII digits; a lenient reader waits a wrong time (or a negative one).",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "      if (/^[0-9]+$/.test(retry)) this.retryMs = Number(retry);", replace: "      if (!Number.isNaN(parseInt(retry, 10))) this.retryMs = parseInt(retry, 10); // MUTANT" },
  ],
  caughtBy: ["retry: only ASCII digits set it", "Any exchange › for any events, line ends and chunking: the same events, lastEventId and retry as the reference"],
} satisfies Mutant;
