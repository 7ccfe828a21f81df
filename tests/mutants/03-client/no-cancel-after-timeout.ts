import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "no notifications/cancelled after a timeout",
  why: "The client stops waiting but never tells the server, which keeps working on a request nobody wants.",
  section: 'timeouts',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    const onTimeout = cancelOnTimeout ? (request: PendingRequest) => this.sendCancellation(request, timeoutMs) : undefined;`,
      replace: `    const onTimeout = cancelOnTimeout ? undefined : undefined; // MUTANT: never cancels`,
    },
  ],
  caughtBy: [
    "after a timeout it sends notifications/cancelled naming the request, and a late answer is ignored quietly",
  ],
} satisfies Mutant;
