import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a request's inputResponses kept for the next request",
  why: "Answers meant for one request reach another (a confirmation given for one delete applies to the next): stateless requests must stand alone.",
  section: "mrtr",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "    let retry: RetryFields = {};\n    for (let round = 0; ; round++) {", replace: "    let retry: RetryFields = (this as unknown as { leaked?: RetryFields }).leaked ?? {};\n    for (let round = 0; ; round++) {" },
    { find: "      retry = await answerInputRequests(method, result, this.options.inputHandlers);", replace: "      retry = await answerInputRequests(method, result, this.options.inputHandlers);\n      (this as unknown as { leaked?: RetryFields }).leaked = retry; // MUTANT: answers outlive their request" },
  ],
  caughtBy: ["answers stay with their request: the next call starts without inputResponses"],
} satisfies Mutant;
