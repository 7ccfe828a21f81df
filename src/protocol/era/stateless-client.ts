// The entry point of exercise 7 (exercises/07-stateless-era): the learner writes the modern half of
// the dual-era client in one file, while the reference keeps it in three small modules, one job
// each — the probe's verdict (probe.ts), the session that puts the `_meta` envelope on every
// request, retries after -32022 and runs MRTR rounds (modern-session.ts), and the answers to a
// server's input requests (input-requests.ts). This file only gathers them, so '@learner' can
// stand for the learner's whole file when the spec runs against the reference; DualEraClient
// (dual-era-client.ts) runs the very same modules.

export { classifyProbe } from './probe.ts';
export type { DiscoverResult, ProbeContext, ProbeOutcome, ProbeTransportKind, ProbeVerdict } from './probe.ts';
export { ModernSession } from './modern-session.ts';
export type { DiscoverOptions, DiscoverVerdict, ModernSessionOptions } from './modern-session.ts';
export { answerInputRequests, capabilitiesFor } from './input-requests.ts';
export type { InputHandler, InputHandlers, RetryFields } from './input-requests.ts';
