import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "every input capability declared, handler or not",
  why: "The server may then ask for sampling or roots the client cannot give, and the request ends in an InputRequiredError instead of a clean -32021.",
  section: "envelope",
  file: "src/protocol/era/input-requests.ts",
  edits: [
    { find: "    if (handlers[method] !== undefined) capabilities[INPUT_METHODS[method]] = {};\n  }", replace: "    if (handlers[method] !== undefined) capabilities[INPUT_METHODS[method]] = {};\n  }\n  for (const capability of Object.values(INPUT_METHODS)) capabilities[capability] = {}; // MUTANT: claims everything" },
  ],
  caughtBy: ["declares exactly the capabilities it has handlers for"],
} satisfies Mutant;
