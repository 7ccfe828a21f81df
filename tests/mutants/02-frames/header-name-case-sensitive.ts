import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the header name compared case-sensitively',
  why: 'Header names are case-insensitive, as in HTTP: a writer that sends "content-length: 52" sends a valid frame, and a reader that only knows "Content-Length" drops every one of its messages as a bad header.',
  section: 'content-length',
  file: 'src/protocol/framing/header-line.ts',
  edits: [
    {
      find: '  if (!equalsIgnoringCase(bytes, start, colon, CONTENT_LENGTH)) return OTHER_FIELD;',
      replace: "  if (new TextDecoder().decode(bytes.subarray(start, colon)) !== 'Content-Length') return OTHER_FIELD; // MUTANT: exact case only",
    },
  ],
  caughtBy: ['reads Content-Length in any case, with spaces or tabs around the number'],
} satisfies Mutant;
