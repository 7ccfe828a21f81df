import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'id 0 treated as "no id"',
  why: 'A falsy check on the id sorts a request with id 0 into the notifications, so it is never answered and the client waits forever.',
  section: 'ids-and-methods',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '    if (isNotification(message)) {',
      replace: `    // BUG: a falsy id (0 included) sorts a request into the notifications.
    if (isNotification(message) || !(message as { id?: unknown }).id) {
      if (!isNotification(message)) return null;`,
    },
  ],
  caughtBy: ['id 0 is a real id: it is answered, and echoed as 0'],
} satisfies Mutant;
