// Carries a host's reason code (`HostReasonCode`, in host.ts) through a thrown Error, so a probe
// that fails deep inside `ready()` or `endpoint()` can still report the code beside its English
// message. The live panel (app/live-session/host-reason-text.ts) words the code in the page's
// language; the English message stays for logs, errors thrown by `start()` and the tests.

import type { HostReasonCode } from './host.ts';

/** An Error whose message is the English reason and which also carries the reason's code. */
export class HostReasonError extends Error {
  readonly why: HostReasonCode;
  constructor(message: string, why: HostReasonCode) {
    super(message);
    this.why = why;
  }
}

/** The code an error carries, if it is one of ours; any other error is shown as its own message. */
export function reasonCodeOf(error: unknown): { why: HostReasonCode } | Record<string, never> {
  return error instanceof HostReasonError ? { why: error.why } : {};
}
