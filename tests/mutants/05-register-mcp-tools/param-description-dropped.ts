import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a parameter's description dropped",
  why: "The model loses what each argument means (\"File to read.\", \"Maximum lines.\") and fills them in by guesswork.",
  section: 'schema-to-params',
  file: 'src/protocol/schema-to-params.ts',
  edits: [
    {
      find: `  if (typeof description === 'string') param.description = description;`,
      replace: `  void description; // MUTANT`,
    },
  ],
  caughtBy: [
    "turns each property into a parameter with its type, description and required flag",
    "schemaToParams › for any schema, nullable types in any position and optional fields left out: the same parameters as the reference",
  ],
} satisfies Mutant;
