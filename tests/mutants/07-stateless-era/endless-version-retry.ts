import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the request retried again and again after -32022",
  why: "A server that contradicts itself keeps the client in a loop of requests; the spec allows one retry.",
  section: "version-retry",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      // A second -32022 is not retried: the server contradicted itself, and the caller sees it.\n      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);", replace: "      return this.send(method, params); // MUTANT: retried without limit" },
  ],
  caughtBy: ["a second -32022 to the same request is not retried again"],
} satisfies Mutant;
