import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "tool calls allowed as soon as initialize is answered",
  why: "The client calls tools before it has sent notifications/initialized: a server with an initialized gate (exercise 4) refuses them.",
  section: 'ready-gate',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    if (this.currentState !== 'ready') throw this.stateError(operation);`,
      replace: `    if (this.currentState !== 'ready' && this.currentState !== 'initialized') throw this.stateError(operation); // MUTANT`,
    },
  ],
  caughtBy: [
    "in \"initialized\" (answered, but notifications/initialized not sent yet) tool calls are still refused",
  ],
} satisfies Mutant;
