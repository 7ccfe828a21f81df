import type { Mutant } from '../mutant.ts';

export default {
  failureMode: '`required` ignored',
  why: 'Every parameter looks optional: the model is told it may leave out arguments the tool cannot run without, and the schema handed back to it loses its required list.',
  section: 'schema-to-params',
  file: 'src/protocol/schema-to-params.ts',
  edits: [
    {
      find: '  return Object.entries(schema.properties).map(([name, property]) => toParam(name, property, required.has(name)));',
      replace: '  return Object.entries(schema.properties).map(([name, property]) => toParam(name, property, false)); // MUTANT: required ignored',
    },
  ],
  caughtBy: [
    'turns each property into a parameter with its type, description and required flag',
    // Through registerMcpTools, which uses schemaToParams: the bug reaches every importer.
    'turns the inputSchema into parameters, so the model sees the same schema as for a local tool',
  ],
} satisfies Mutant;
