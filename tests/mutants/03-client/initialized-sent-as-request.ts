import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "notifications/initialized sent as a request, with an id",
  why: "A notification has no id; sent with one, it is a request nobody answers: the server may reply with an error, and the client files a waiter that never settles.",
  section: 'handshake',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    this.send(encodeNotification('notifications/initialized'));`,
      replace: `    this.send(encodeRequest(this.nextId++, 'notifications/initialized')); // MUTANT: an id`,
    },
  ],
  caughtBy: [
    "notifyInitialized() sends notifications/initialized as a notification (no id) and moves to \"ready\"",
    "Any session › for any session: writes the same messages, goes through the same states and settles each call the same way as the reference",
  ],
} satisfies Mutant;
