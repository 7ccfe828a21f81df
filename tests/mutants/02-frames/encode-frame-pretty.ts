import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a Content-Length body written pretty-printed",
  why: "JSON.stringify(message, null, 2) is valid JSON and the count still matches, but the lesson asks for the compact body every peer writes: frames are larger and differ byte for byte from what the other side expects to see.",
  section: 'content-length',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `  const body = utf8.encode(toJsonText(message));`,
      replace: `  const body = utf8.encode(JSON.stringify(message, null, 2)); // MUTANT: pretty-printed`,
    },
  ],
  caughtBy: [
    "writes \"Content-Length: N\", a blank line, then the compact JSON body",
    "encodeFrame › for any message: writes the same frame as the reference",
  ],
} satisfies Mutant;
