// The measurement every host shares, Node side and page side alike (so it stays free of Node and
// DOM): warm up, then time one round trip at a time, each awaited before the next is sent. An
// echo call only counts if the text came back unchanged; a host that answers wrongly fails the
// benchmark instead of looking fast.

export const ECHO_TEXT = 'hello 你好';
export const WARM_UP_CALLS = 20;
export const TIMED_CALLS = 200;

export interface CallPlan {
  warmUp: number;
  calls: number;
}

export const DEFAULT_PLAN: CallPlan = { warmUp: WARM_UP_CALLS, calls: TIMED_CALLS };

/**
 * One untimed session per host before the timed ones. Each timed session starts fresh server
 * processes, but the long-lived code around them (the clients in this process, the `ws` library
 * and the bridge relay, Chromium's WebSocket) would otherwise still be cold for whichever host
 * runs first: measured here, the first session's p50 was up to twice the next one's (SDK 0.39 vs
 * 0.19 ms, bridge 2.6 vs 1.5 ms), which made the baseline, and so every ratio, depend on order.
 */
export const PRIMING_PLAN: CallPlan = { warmUp: WARM_UP_CALLS, calls: 0 };

/** Sends one echo tools/call with `text` and resolves with the call's raw result. */
export type EchoCall = (text: string) => Promise<unknown>;

/** Round-trip times in milliseconds, one per timed call, in call order. */
export function timeEchoCalls(call: EchoCall, now: () => number, plan: CallPlan = DEFAULT_PLAN): Promise<number[]> {
  return timeRoundTrips(() => call(ECHO_TEXT), expectEcho, now, plan);
}

/**
 * The loop under timeEchoCalls, for any request/answer pair: `check` throws on a wrong answer and
 * runs outside the timed span, because the check is the benchmark's work, not the host's.
 */
export async function timeRoundTrips<T>(roundTrip: () => Promise<T>, check: (answer: T) => void, now: () => number, plan: CallPlan): Promise<number[]> {
  for (let i = 0; i < plan.warmUp; i++) check(await roundTrip());
  const samples: number[] = [];
  for (let i = 0; i < plan.calls; i++) {
    const started = now();
    const answer = await roundTrip();
    samples.push(now() - started);
    check(answer);
  }
  return samples;
}

/** The text of the first content block of a tools/call result, whichever client produced it. */
export function echoedText(result: unknown): string | undefined {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return undefined;
  const first = content[0] as { type?: unknown; text?: unknown } | undefined;
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
}

function expectEcho(result: unknown): void {
  const text = echoedText(result);
  if (text !== ECHO_TEXT) throw new Error(`echo returned ${JSON.stringify(text)} instead of ${JSON.stringify(ECHO_TEXT)}`);
}
