import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the serverInfo in a result's _meta is never read",
  why: "The client can no longer say which server it talks to: the revision moved serverInfo from the handshake into every result.",
  section: "discover",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "    this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;\n", replace: "" },
  ],
  caughtBy: ["remembers the serverInfo a result carries in its _meta"],
} satisfies Mutant;
