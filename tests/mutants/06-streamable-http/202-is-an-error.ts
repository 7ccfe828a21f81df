import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "202 Accepted is treated as a failure",
  why: "Every notification the client sends is reported as an error, though the server accepted it.",
  section: "responses",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (response.status < 200 || response.status >= 300) {\n      return this.fail(request,", replace: "    if (response.status < 200 || response.status >= 300 || response.status === 202) { // MUTANT\n      return this.fail(request," },
  ],
  caughtBy: ["a notification gets 202 Accepted: no body to read, nothing for the client, nothing wrong"],
} satisfies Mutant;
