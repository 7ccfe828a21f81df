import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the cursor is the first event id, not the last",
  why: "The server replays what already arrived: notifications are delivered twice.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "              if (item.event.id !== '') cursor = item.event.id;", replace: "              if (item.event.id !== '' && cursor === '') cursor = item.event.id; // MUTANT" },
  ],
  caughtBy: ["resumes from the last event id it saw, so nothing arrives twice (a server that closes the connection to poll)"],
} satisfies Mutant;
