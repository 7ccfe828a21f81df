import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the "\\r" of a CRLF line ending kept',
  why: 'JSON.parse forgives a "\\r" after an object, which hides the bug, but a blank CRLF line becomes the one-byte line "\\r": not blank, not JSON, reported as an error. Windows writers and tools that translate line endings send CRLF; the official SDK strips one "\\r".',
  section: 'line-reader',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: '    if (body.length > 0 && body[body.length - 1] === CR) body = body.subarray(0, body.length - 1);',
      replace: '    // MUTANT: the CR before the LF is kept',
    },
    {
      find: '    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;',
      replace: '    if (byte !== 0x20 && byte !== 0x09) return false; // MUTANT: CR is not blank',
    },
  ],
  caughtBy: ['strips one "\\r" before the "\\n", so CRLF line endings work, blank CRLF lines included'],
} satisfies Mutant;
