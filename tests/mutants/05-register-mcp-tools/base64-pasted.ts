import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "binary content pasted into the model's context as base64",
  why: 'Base64 is unreadable for the model and, for a real screenshot, hundreds of kilobytes of context spent on noise.',
  section: 'failure-is-data',
  file: 'src/protocol/mcp-result-to-text.ts',
  edits: [
    {
      find: '      return `[${block.type}: ${mimeOf(block)}, ${base64ByteLength(block.data)} bytes]`;',
      replace: '      return `[${block.type}: ${mimeOf(block)}] ${String(block.data)}`; // MUTANT: the data itself',
    },
  ],
  caughtBy: [
    'describes an image with a short placeholder instead of pasting its base64 data',
    'shows audio, resource links and embedded resources as readable text',
  ],
} satisfies Mutant;
