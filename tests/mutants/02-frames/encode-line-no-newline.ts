import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a line written without its newline",
  why: "The reader on the other side waits for the 0x0A that ends the line: the message sits in its buffer until the next one arrives, and the two are read as one broken line.",
  section: 'ndjson',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: `  return utf8.encode(\`\${toJsonText(message)}\\n\`);`,
      replace: `  return utf8.encode(toJsonText(message)); // MUTANT: no newline`,
    },
  ],
  caughtBy: [
    "writes one compact JSON object followed by \"\\n\"",
    "encodeLine › for any message: writes the same line as the reference",
  ],
} satisfies Mutant;
