// Which frame `i` opens: the last arrow that carries bytes among the steps shown, so the key
// always opens what the room just watched arrive (EOF and the exit carry no bytes).

import type { StepRecord } from '../protocol/stepper-records.ts';

export function lastFrameSeq(records: readonly StepRecord[], cursor: number): number | null {
  for (let index = Math.min(cursor, records.length) - 1; index >= 0; index--) {
    const withBytes = records[index]!.arrows.filter((arrow) => arrow.frame !== null);
    if (withBytes.length > 0) return withBytes[withBytes.length - 1]!.seq;
  }
  return null;
}
