import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "MCP-Protocol-Version is always the latest version, whatever initialize chose",
  why: "A server that negotiated an older version gets requests that claim a newer one, and refuses them or answers the wrong revision.",
  section: "headers",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (typeof version === 'string') this.protocolVersion = version;", replace: "    if (typeof version === 'string') this.protocolVersion = '2025-11-25'; // MUTANT" },
  ],
  caughtBy: ["MCP-Protocol-Version is the version the initialize result chose, not the one offered", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
