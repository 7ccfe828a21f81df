import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the envelope replaces the caller's _meta instead of joining it",
  why: "A progressToken (or any _meta key the caller set) disappears: the server can no longer report progress for the request.",
  section: "envelope",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      raw = await this.channel.request(method, withEnvelope(params, this.envelope()), this.options.requestTimeoutMs);\n    } catch", replace: "      raw = await this.channel.request(method, withEnvelope({ ...params, _meta: undefined }, this.envelope()), this.options.requestTimeoutMs); // MUTANT: caller's _meta dropped\n    } catch" },
  ],
  caughtBy: ["keeps the caller's params and the _meta keys already there"],
} satisfies Mutant;
