import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'exactly one space before the number, nothing after it',
  why: 'A reader that cuts "Content-Length: " off the front and parses the rest refuses "Content-Length:17" and "Content-Length: 17 ", which other writers send: their frames are dropped as bad headers.',
  section: 'content-length',
  file: 'src/protocol/framing/header-line.ts',
  edits: [
    {
      find: '  while (start < end && isBlank(bytes[start]!)) start++;\n  while (end > start && isBlank(bytes[end - 1]!)) end--;',
      replace: '  if (bytes[start] === SPACE) start++; // MUTANT: one space after the colon, nothing after the number',
    },
  ],
  caughtBy: ['reads Content-Length in any case, with spaces or tabs around the number'],
} satisfies Mutant;
