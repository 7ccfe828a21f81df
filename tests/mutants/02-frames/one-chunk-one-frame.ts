import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'one chunk taken for one frame',
  why: 'Each push starts over as if a new frame began with the chunk, so whatever an earlier chunk left unfinished (half a header, most of a body) is forgotten: pipes cut wherever they like, so the first large message is lost and the rest of it read as garbage.',
  section: 'frame-reader',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: '  push(chunk: Uint8Array): ReadItem[] {',
      replace: `  push(chunk: Uint8Array): ReadItem[] {
    // MUTANT: forget the unfinished frame; read the chunk as if it started a new one
    this.phase = 'header' as Phase;
    this.resetHeader();
    this.body.clear();`,
    },
  ],
  caughtBy: [
    'holds back an unfinished frame, and counts what it holds in bufferedBytes',
    'gives the same messages wherever the stream is cut in two',
    'gives the same messages when the stream arrives one byte at a time',
    'survives a chunk that ends in the middle of a character',
  ],
} satisfies Mutant;
