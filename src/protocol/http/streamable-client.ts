// The entry point of exercise 6 (exercises/06-streamable-http): the learner writes, in one file,
// the SSE reader (what the reference keeps in framing/sse.ts) and the client side of a Streamable
// HTTP session (http/client-transport.ts). This file only gathers them, so '@learner' can stand for
// the learner's whole file when the spec runs against the reference, and the page's HTTP stepper,
// "Drive with your code" and "Check my client" load either this module or the learner's file
// through the same names.

export { SseReader, encodeSseEvent, encodeSseText } from '../framing/sse.ts';
export type { SseEvent, SseEventInit, SseReadItem } from '../framing/sse.ts';
export { HttpClientTransport, HTTP_CLIENT_FRAMING } from './client-transport.ts';
export type { HttpClientTransportOptions } from './client-transport.ts';
