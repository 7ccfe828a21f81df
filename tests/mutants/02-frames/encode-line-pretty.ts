import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a message written pretty-printed on a line-based stream',
  why: 'JSON.stringify(message, null, 2) puts raw newlines between the tokens, so one message becomes many lines and a line reader sees only fragments; NDJSON works only because compact JSON never holds a raw newline.',
  section: 'ndjson',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: '  return utf8.encode(`${toJsonText(message)}\\n`);',
      replace: '  return utf8.encode(`${JSON.stringify(message, null, 2)}\\n`); // MUTANT: pretty-printed',
    },
  ],
  caughtBy: [
    'writes one compact JSON object followed by "\\n"',
    'never puts a raw newline inside the line: one in a string stays escaped as \\n',
  ],
} satisfies Mutant;
