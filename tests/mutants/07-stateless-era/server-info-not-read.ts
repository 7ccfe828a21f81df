import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the serverInfo in a result's _meta is never read",
  why: "The client can no longer say which server it talks to: the revision moved serverInfo from the handshake into every result.",
  section: "discover",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "    const result = raw as Record<string, unknown>;\n    this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;\n", replace: "    const result = raw as Record<string, unknown>;\n" },
    { find: "      // The DiscoverResult is a result too: its serverInfo is the latest one seen.\n      this.lastServerInfo = resultServerInfo(result) ?? this.lastServerInfo;\n", replace: "" },
  ],
  caughtBy: ["remembers the serverInfo a result carries in its _meta", "keeps the latest serverInfo: a later result replaces the one discover() read, and a result without one changes nothing"],
} satisfies Mutant;
