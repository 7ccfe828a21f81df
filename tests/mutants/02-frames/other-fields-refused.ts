import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a header block with a field other than Content-Length refused",
  why: "LSP-style peers send Content-Type next to Content-Length; a reader that takes any other field for a broken header drops every one of their frames.",
  section: 'broken-input',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `      case 'other-field':
        this.lineStart = this.headerLength;`,
      replace: `      case 'other-field':
        this.headerProblem = 'unexpected header field'; // MUTANT: only Content-Length allowed
        this.lineStart = this.headerLength;`,
    },
  ],
  caughtBy: [
    "accepts other header fields next to Content-Length",
    "FrameReader: frames in chunks of any size › for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end",
  ],
} satisfies Mutant;
