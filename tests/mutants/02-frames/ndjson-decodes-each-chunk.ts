import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'each chunk decoded to text before it is split into lines',
  why: 'A chunk that ends inside a character leaves half of it, which the decoder turns into U+FFFD, so the message arrives with corrupted text (or as invalid JSON).',
  section: 'line-reader',
  file: 'src/protocol/framing/ndjson.ts',
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
  caughtBy: ['gives the same messages wherever the stream is cut in two, or one byte at a time'],
} satisfies Mutant;
