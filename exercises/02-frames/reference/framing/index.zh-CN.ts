// 两种 stdio 分帧方式放在同一个接口后面：按名字挑一个。

import { contentLengthFraming } from './content-length.ts';
import { ndjsonFraming } from './ndjson.ts';
import type { Framing, FramingName } from './types.ts';

export * from './types.ts';
// 本章的名字（练习 2）：这两个类就是 createReader 创建的读取器。这里的类 FrameReader
// 遮住了 `export *` 带来的同名接口；要用那个接口，请从 './types.ts' 导入。
export { contentLengthFraming, encodeFrame, FrameReader, MAX_HEADER_BYTES } from './content-length.ts';
export { encodeLine, LineReader, ndjsonFraming } from './ndjson.ts';

const FRAMINGS: Record<FramingName, Framing> = {
  'content-length': contentLengthFraming,
  ndjson: ndjsonFraming,
};

export function getFraming(name: FramingName): Framing {
  return FRAMINGS[name];
}
