import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'each chunk decoded to text on its own',
  why: 'A chunk that ends in the middle of a character leaves half of it, which the decoder turns into U+FFFD: the text is corrupted and the byte count no longer matches the header.',
  section: 'frame-reader',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: 'const utf8 = new TextEncoder();',
      replace: `const utf8 = new TextEncoder();
const lossyUtf8 = new TextDecoder(); // MUTANT (used below)`,
    },
    {
      find: '  push(chunk: Uint8Array): ReadItem[] {',
      replace: `  push(chunk: Uint8Array): ReadItem[] {
    chunk = utf8.encode(lossyUtf8.decode(chunk)); // MUTANT: decodes each chunk on its own`,
    },
  ],
  caughtBy: [
    'survives a chunk that ends in the middle of a character',
    'gives the same messages wherever the stream is cut in two',
  ],
} satisfies Mutant;
