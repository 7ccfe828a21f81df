import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a line left unfinished by one chunk forgotten when the next comes',
  why: 'The reader assumes each chunk holds whole lines, but a pipe cuts anywhere: the message whose line straddles two chunks is lost and its tail is reported as garbage.',
  section: 'line-reader',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: '  push(chunk: Uint8Array): ReadItem[] {',
      replace: `  push(chunk: Uint8Array): ReadItem[] {
    this.line.clear(); // MUTANT: the unfinished line from the last chunk is dropped`,
    },
  ],
  caughtBy: [
    'holds a line until its newline arrives',
    'gives the same messages wherever the stream is cut in two, or one byte at a time',
  ],
} satisfies Mutant;
