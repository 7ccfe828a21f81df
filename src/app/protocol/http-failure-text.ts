// The HTTP stepper's "Stopped: …" line in the page's language. When the stepper itself gave up
// waiting (HttpWaitFailure), it says so from the code; any other failure is the client's own error
// (the learner's code threw, the transport failed) and is shown as it was thrown.

import type { HttpStepperStatus } from './http-session-store.ts';
import type { ProtocolText } from './text.ts';

export function httpFailureText(t: ProtocolText, status: Extract<HttpStepperStatus, { status: 'failed' }>): string {
  const { why } = status;
  if (why === undefined) return status.reason;
  if (why.code === 'session-ended') return t('http.failure.sessionEnded');
  return t('http.failure.wireTimeout', { seconds: why.seconds, expected: t(`http.failure.expected.${why.step}`) });
}
