import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "-32022 naming only handshake-era versions read as a failure",
  why: "A legacy server that happens to use -32022 lists only handshake versions: the client must fall back, not give up.",
  section: "version-retry",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "    return { kind: 'legacy', reason: `the server supports only handshake-era versions (${data.supported.join(', ')})` };", replace: "    return { kind: 'fail', reason: 'MUTANT: no modern version' };" },
  ],
  caughtBy: ["-32022 naming only handshake-era versions means legacy; naming only modern versions we lack, fail"],
} satisfies Mutant;
