// The two stdio framings behind one interface: pick one by name.

import { contentLengthFraming } from './content-length.ts';
import { ndjsonFraming } from './ndjson.ts';
import type { Framing, FramingName } from './types.ts';

export * from './types.ts';
export { contentLengthFraming, MAX_HEADER_BYTES } from './content-length.ts';
export { ndjsonFraming } from './ndjson.ts';

const FRAMINGS: Record<FramingName, Framing> = {
  'content-length': contentLengthFraming,
  ndjson: ndjsonFraming,
};

export function getFraming(name: FramingName): Framing {
  return FRAMINGS[name];
}
