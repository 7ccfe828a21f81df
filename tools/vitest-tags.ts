// The tags the exercise specs' tests carry, for both Vitest configs (the suite's and the CLI's):
// Vitest refuses a tag its config does not define.

import { PROPERTY_TAG } from '../src/protocol/property-runs.ts';

export const PROPERTY_TAGS = [
  {
    name: PROPERTY_TAG,
    description: 'Runs a property over generated inputs (fast-check); the page runs these after the example tests.',
  },
];
