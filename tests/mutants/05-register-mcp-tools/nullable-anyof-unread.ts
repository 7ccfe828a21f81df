import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a nullable anyOf left unread',
  why: "Only `type` is read, so the nullable form schema generators emit for optional fields (anyOf: [{ type: 'string' }, { type: 'null' }]) becomes type 'any': the model loses the type.",
  section: 'schema-to-params',
  file: 'src/protocol/schema-to-params.ts',
  edits: [
    {
      find: '  const shape = readType(property.type) ?? readUnion(property.anyOf) ?? readUnion(property.oneOf);',
      replace: '  const shape = readType(property.type); // MUTANT: anyOf / oneOf not read',
    },
  ],
  caughtBy: ['reads a nullable anyOf as its one real type, marked nullable'],
} satisfies Mutant;
