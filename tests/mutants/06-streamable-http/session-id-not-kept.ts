import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the Mcp-Session-Id of the initialize response is not kept",
  why: "Every later request lacks the session id and the server answers 400 Bad Request.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (request?.method === 'initialize') this.sessionId = headerValue(response.headers, HEADER.sessionId) ?? undefined;\n", replace: "    // MUTANT: the session id is not kept\n" },
  ],
  caughtBy: ["keeps the Mcp-Session-Id of the initialize response"],
} satisfies Mutant;
