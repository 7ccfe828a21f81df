import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'Content-Length counted in characters, not UTF-8 bytes',
  why: 'text.length counts UTF-16 units, so {"text":"你好"} is announced as 13 bytes while 17 are sent: the reader cuts the body 4 bytes short and the leftover bytes wreck the next frame (the chapter\'s first pitfall).',
  section: 'content-length',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: '  const body = utf8.encode(toJsonText(message));',
      replace: `  const text = toJsonText(message); // MUTANT: its length is announced below
  const body = utf8.encode(text);`,
    },
    {
      find: 'Content-Length: ${body.length}',
      replace: 'Content-Length: ${text.length}',
    },
  ],
  caughtBy: ['counts UTF-8 bytes, not characters: "你好" is 6 bytes but only 2 characters'],
} satisfies Mutant;
