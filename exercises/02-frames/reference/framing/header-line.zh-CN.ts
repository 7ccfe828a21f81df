// Content-Length 头部块中的一行，按原始字节分类。头部是 ASCII，
// 所以逐字节读取，正常路径上从不解码成字符串。

/**
 * `blank`：结束头部块的空行。`content-length`：这个字段，带上它的值；值不是字节数时为 null。
 * `other-field`：任何其他 `Name: value` 行（例如 Content-Type），接受并忽略。
 * `garbage`：根本不是头部行。
 */
export type HeaderLine =
  | { kind: 'blank' }
  | { kind: 'content-length'; value: number | null }
  | { kind: 'other-field' }
  | { kind: 'garbage' };

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

const BLANK: HeaderLine = { kind: 'blank' };
const OTHER_FIELD: HeaderLine = { kind: 'other-field' };
const GARBAGE: HeaderLine = { kind: 'garbage' };

/** 我们唯一关心的那个头部名，以及重新同步标记，各自的小写 ASCII 字节。 */
const CONTENT_LENGTH = new TextEncoder().encode('content-length');
const CONTENT_LENGTH_COLON = new TextEncoder().encode('content-length:');

/** 比这更多的数字位不可能是一个精确的 JavaScript 数字，也远远超过任何上限。 */
const MAX_LENGTH_DIGITS = 15;

/** HTTP 的 `token` 字符：头部名可以由哪些字符组成。 */
const IS_TOKEN = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  IS_TOKEN[char.charCodeAt(0)] = 1;
}

/**
 * 对 `bytes[start, end)` 分类，它是一整行，包括最后的 LF。头部行是以 CRLF 结尾的
 * `Name: value`，和 HTTP、LSP 一样；以单独 LF 结尾的行是垃圾数据，
 * 大多数误打到 stdout 的日志行就是这样被抓住的。
 */
export function classifyHeaderLine(bytes: Uint8Array, start: number, end: number): HeaderLine {
  if (end - start < 2 || bytes[end - 1] !== LF || bytes[end - 2] !== CR) return GARBAGE;
  const lineEnd = end - 2; // CRLF 之前
  if (lineEnd === start) return BLANK;

  let colon = start;
  while (colon < lineEnd && IS_TOKEN[bytes[colon]!] === 1) colon++;
  if (colon === start || colon === lineEnd || bytes[colon] !== COLON) return GARBAGE;

  if (!equalsIgnoringCase(bytes, start, colon, CONTENT_LENGTH)) return OTHER_FIELD;
  return { kind: 'content-length', value: parseByteCount(bytes, colon + 1, lineEnd) };
}

/**
 * `content-length:`（不分大小写）在 `bytes[start, end)` 中开始的位置，没有则为 -1。读取器用它
 * 找出被垃圾数据撞上的头部，例如一个没有换行的消息体后面紧跟着下一帧。
 */
export function indexOfContentLength(bytes: Uint8Array, start: number, end: number): number {
  const marker = CONTENT_LENGTH_COLON;
  for (let at = start; at + marker.length <= end; at++) {
    if (equalsIgnoringCase(bytes, at, at + marker.length, marker)) return at;
  }
  return -1;
}

/** 只允许数字，前后可以有空格或制表符；其他任何内容（`-5`、`1e3`、``）都返回 null。 */
function parseByteCount(bytes: Uint8Array, start: number, end: number): number | null {
  while (start < end && isBlank(bytes[start]!)) start++;
  while (end > start && isBlank(bytes[end - 1]!)) end--;
  if (start === end || end - start > MAX_LENGTH_DIGITS) return null;
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = bytes[at]! - 0x30;
    if (digit < 0 || digit > 9) return null;
    value = value * 10 + digit;
  }
  return value;
}

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB;
}

/** 把 `bytes[start, end)` 与小写 ASCII 的 `lower` 比较，只折叠 A-Z。 */
function equalsIgnoringCase(bytes: Uint8Array, start: number, end: number, lower: Uint8Array): boolean {
  if (end - start !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const byte = bytes[start + i]!;
    const folded = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
    if (folded !== lower[i]) return false;
  }
  return true;
}
