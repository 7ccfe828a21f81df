import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "lines ended with CRLF",
  why: "MCP's stdio transport ends each message with \"\\n\"; readers forgive a \"\\r\", but the writer is asked to write exactly one compact JSON text and \"\\n\".",
  section: 'ndjson',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: `  return utf8.encode(\`\${toJsonText(message)}\\n\`);`,
      replace: `  return utf8.encode(\`\${toJsonText(message)}\\r\\n\`); // MUTANT: CRLF`,
    },
  ],
  caughtBy: [
    "writes one compact JSON object followed by \"\\n\"",
    "encodeLine › for any message: writes the same line as the reference",
  ],
} satisfies Mutant;
