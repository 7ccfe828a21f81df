import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a frame's length given as its body's length, header left out",
  why: "The viewer marks only the body and the next frame seems to start in the middle of this one: `length` is the whole frame, header included.",
  section: 'byte-stream',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `    items.push(readJsonBody(body, this.frameOffset, this.frameLength));`,
      replace: `    items.push(readJsonBody(body, this.frameOffset, body.length)); // MUTANT: the body alone`,
    },
  ],
  caughtBy: [
    "says where each message sits in the stream: offset and length, in bytes",
    "FrameReader: frames in chunks of any size › for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end",
  ],
} satisfies Mutant;
