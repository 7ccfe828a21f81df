import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "idKey turns every id into a number first",
  why: "\"a\" and \"b\" both become NaN and \"1\" becomes 1: different requests share a row of the pending table, and answers go to the wrong call.",
  section: 'ids',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  return \`\${typeof id}:\${id}\`;`,
      replace: `  return String(Number(id)); // MUTANT`,
    },
  ],
  caughtBy: [
    "idKey gives one key per id and keeps the type apart",
    "Pairing a response with its request › for any two ids: responseTo pairs them, and idKey tells them apart, as the reference does",
  ],
} satisfies Mutant;
