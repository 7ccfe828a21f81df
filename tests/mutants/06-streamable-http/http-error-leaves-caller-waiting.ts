import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an HTTP error status is swallowed",
  why: "The request's caller never hears of the 4xx/5xx and waits for its timeout.",
  section: "responses",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "      return this.fail(request, `HTTP ${response.status}: ${await errorText(response)}`);", replace: "      return void (await drain(response)); // MUTANT: nobody is told" },
  ],
  caughtBy: ["an HTTP error for a request rejects the caller with McpRpcError instead of leaving it waiting"],
} satisfies Mutant;
