import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "invalid UTF-8 in a body patched with U+FFFD instead of refused",
  why: "A decoder without { fatal: true } turns broken bytes into replacement characters and hands the message on as if the sender had written it.",
  section: 'broken-input',
  file: 'src/protocol/framing/json-body.ts',
  edits: [
    {
      find: `const utf8 = new TextDecoder('utf-8', { fatal: true });`,
      replace: `const utf8 = new TextDecoder(); // MUTANT: not fatal`,
    },
  ],
  caughtBy: [
    "FrameReader: frames in chunks of any size › for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end",
    "LineReader › for any lines in any chunks: returns the same items from each push, and holds the same bytes, as the reference",
  ],
} satisfies Mutant;
