import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the blank line after the header forgotten",
  why: "The header ends with a single CRLF, so the reader takes the body's first line for another header field and never finds where the header block ends.",
  section: 'content-length',
  file: 'src/protocol/framing/content-length.ts',
  edits: [
    {
      find: `  const header = utf8.encode(\`Content-Length: \${body.length}\\r\\n\\r\\n\`);`,
      replace: `  const header = utf8.encode(\`Content-Length: \${body.length}\\r\\n\`); // MUTANT: no blank line`,
    },
  ],
  caughtBy: [
    "writes \"Content-Length: N\", a blank line, then the compact JSON body",
    "encodeFrame › for any message: writes the same frame as the reference",
  ],
} satisfies Mutant;
