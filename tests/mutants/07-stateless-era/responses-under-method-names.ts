import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "inputResponses keyed by method instead of by the server's keys",
  why: "The server matches each answer to its question by key: answers filed under method names match nothing.",
  section: "mrtr",
  file: "src/protocol/era/input-requests.ts",
  edits: [
    { find: "      responses[key] = await handler(params);", replace: "      responses[String(kind)] = await handler(params); // MUTANT: keyed by method" },
  ],
  caughtBy: ["answers every input request with its handler and retries with inputResponses under the same keys"],
} satisfies Mutant;
