import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a body that is not JSON reported as a bad header",
  why: "The item says the header was broken when it was the body: whoever reads the live view looks for the mistake in the wrong place.",
  section: 'broken-input',
  file: 'src/protocol/framing/json-body.ts',
  edits: [
    {
      find: `    return { type: 'error', kind: 'bad-json', detail: \`body is not JSON: \${(error as Error).message}\`, offset, length };`,
      replace: `    return { type: 'error', kind: 'bad-header', detail: \`body is not JSON: \${(error as Error).message}\`, offset, length }; // MUTANT: wrong kind`,
    },
  ],
  caughtBy: [
    "reports a body that is not JSON as a bad-json error, then reads the next frame",
    "FrameReader: frames in chunks of any size › for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end",
  ],
} satisfies Mutant;
