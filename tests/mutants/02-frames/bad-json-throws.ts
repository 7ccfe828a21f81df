import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a body that is not JSON throws out of push()',
  why: 'JSON.parse is called bare, so one broken frame (or one frame whose length was wrong) stops the reader, and every message after it is lost.',
  section: 'broken-input',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: '    items.push(readJsonBody(body, this.frameOffset, this.frameLength));',
      replace: `    // MUTANT: no try/catch around the decoding
    items.push({ type: 'message', value: JSON.parse(new TextDecoder().decode(body)), offset: this.frameOffset, length: this.frameLength });`,
    },
  ],
  caughtBy: [
    'reports a body that is not JSON as a bad-json error, then reads the next frame',
    'reports a body that is not valid UTF-8 as bad-json',
  ],
} satisfies Mutant;
