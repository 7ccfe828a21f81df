import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'blank lines parsed as messages',
  why: 'An empty line (a writer that ends messages with "\\n\\n", a stray newline) goes to JSON.parse and comes out as a bad-json error, so harmless whitespace looks like a broken message.',
  section: 'line-reader',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: '    } else if (!isBlank(body)) {',
      replace: '    } else { // MUTANT: blank lines are parsed too',
    },
  ],
  caughtBy: ['skips blank lines without reporting anything'],
} satisfies Mutant;
