import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a nullable anyOf read as if null always came last",
  why: "anyOf: [{type: \"null\"}, {type: \"string\"}] is the same type as the other order, but the bridge reads it as \"null\", and the model is told the argument can only be null.",
  section: 'schema-to-params',
  file: 'src/protocol/schema-to-params.ts',
  edits: [
    {
      find: `  const others = branches.filter((branch) => !isNullBranch(branch));`,
      replace: `  const others = branches.slice(0, 1).filter(() => true); // MUTANT: the first branch is the real type`,
    },
  ],
  caughtBy: [
    "schemaToParams › for any schema, nullable types in any position and optional fields left out: the same parameters as the reference",
  ],
} satisfies Mutant;
