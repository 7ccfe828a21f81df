import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a bad header dropped without a word',
  why: "The chapter's reader skips a header with no usable Content-Length silently: the stream goes on, but nothing says bytes were thrown away, so a server printing logs to stdout looks like a server that sometimes does not answer.",
  section: 'broken-input',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: "    items.push({ type: 'error', kind: 'bad-header', detail, offset: this.frameOffset, length });",
      replace: '    void items; // MUTANT: the dropped header is never reported',
    },
  ],
  caughtBy: ['reports a header without a usable Content-Length as bad-header, then reads the next frame'],
} satisfies Mutant;
