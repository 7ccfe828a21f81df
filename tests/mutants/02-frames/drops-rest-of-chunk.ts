import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the bytes after a frame thrown away with the chunk',
  why: 'Once a body is complete the reader skips to the end of the chunk, so a second frame that arrived in the same chunk (common when a server answers quickly) is lost, or torn in half.',
  section: 'frame-reader',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `    this.phase = 'header';
    return end;`,
      replace: `    this.phase = 'header';
    return chunk.length; // MUTANT: the rest of the chunk is dropped`,
    },
  ],
  caughtBy: [
    'reads every frame when several arrive in one chunk',
    'gives the same messages wherever the stream is cut in two',
  ],
} satisfies Mutant;
