import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "clientCapabilities left out of the envelope",
  why: "A modern server reads capabilities from every request: without them it must refuse anything that needs input, or reject the request as invalid (-32602).",
  section: "envelope",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      clientCapabilities: capabilitiesFor(this.options.inputHandlers),\n      clientInfo: this.options.clientInfo,\n    };", replace: "      clientCapabilities: {}, // MUTANT: capabilities never declared\n      clientInfo: this.options.clientInfo,\n    };" },
  ],
  caughtBy: ["declares exactly the capabilities it has handlers for"],
} satisfies Mutant;
