// Deep links to a step of the stepper: `#protocol/step/3` opens the protocol view showing the
// first three steps (recorded already, or stepped live to get there).

export const PROTOCOL_HASH = '#protocol';
const STEP_PATTERN = /^#protocol\/step\/(\d{1,3})$/;

export function stepHash(count: number): string {
  return `${PROTOCOL_HASH}/step/${Math.max(0, Math.floor(count))}`;
}

/** The step count a hash links to; null when it is not a step link. */
export function parseStepHash(hash: string): number | null {
  const match = STEP_PATTERN.exec(hash);
  return match ? Number(match[1]) : null;
}

/** True for any hash inside the protocol view. */
export function isProtocolHash(hash: string): boolean {
  return hash === PROTOCOL_HASH || hash.startsWith(`${PROTOCOL_HASH}/`);
}
