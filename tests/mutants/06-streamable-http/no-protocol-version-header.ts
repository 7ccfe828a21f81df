import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "MCP-Protocol-Version is never sent",
  why: "The client MUST send it after initialize; without it the server has to assume 2025-03-26 and may behave as that revision.",
  section: "headers",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (this.protocolVersion !== undefined) headers[HEADER.protocolVersion] = this.protocolVersion;\n", replace: "    // MUTANT: no MCP-Protocol-Version\n" },
  ],
  caughtBy: ["after initialize: every request carries Mcp-Session-Id and MCP-Protocol-Version", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
