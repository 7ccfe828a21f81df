import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "offsets counted from the start of each chunk, not of the stream",
  why: "The byte viewer points at the wrong bytes as soon as a message does not start its chunk: the reader must keep a running count of every byte consumed.",
  section: 'byte-stream',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `    if (this.headerLength === 0) this.frameOffset = this.chunkOffset + at;`,
      replace: `    if (this.headerLength === 0) this.frameOffset = at; // MUTANT: offset within the chunk`,
    },
  ],
  caughtBy: [
    "says where each message sits in the stream: offset and length, in bytes",
    "FrameReader: frames in chunks of any size › for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end",
  ],
} satisfies Mutant;
