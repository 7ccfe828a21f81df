// Deterministic message sets for the framing benchmark: JSON-RPC traffic whose text mixes ASCII,
// CJK and emoji, so every body has multi-byte characters and chunk cuts land inside them.

export interface Workload {
  name: string;
  messages: unknown[];
  /** The encoded stream is cut into chunks of this many bytes (the last one may be shorter). */
  chunkBytes: number;
}

const KIB = 1024;

const ASCII_PHRASES = [
  'echo: the quick brown fox jumps over the lazy dog. ',
  'tool call finished in 12 ms with exit code 0; ',
  'See https://modelcontextprotocol.io/specification for details. ',
  'Reading file "src/protocol/jsonrpc.ts" (2,417 bytes)\\n',
  'temperature=0.7, max_tokens=1024, top_p=0.95; ',
];
const CJK_PHRASES = ['你好，世界。', '模型上下文协议（MCP）', '工具调用已完成，', '服务器返回了结果：', '東京の天気は晴れです。', '안녕하세요 '];
const EMOJI = ['🚀', '🌍', '✅', '🤖', '📦', '👍🏽', '🧪'];

/** A tiny seeded PRNG (mulberry32): the same workloads on every run and every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Text of about `bytes` UTF-8 bytes: mostly ASCII phrases, with CJK phrases and emoji mixed in. */
function mixedText(random: () => number, bytes: number): string {
  const utf8 = new TextEncoder();
  let text = '';
  let size = 0;
  while (size < bytes) {
    const roll = random();
    const pool = roll < 0.6 ? ASCII_PHRASES : roll < 0.9 ? CJK_PHRASES : EMOJI;
    const piece = pool[Math.floor(random() * pool.length)]!;
    text += piece;
    size += utf8.encode(piece).length;
  }
  return text;
}

/** One of the three message kinds a session carries, around 1 KiB once encoded. */
function kibMessage(random: () => number, index: number): unknown {
  switch (index % 3) {
    case 0:
      return { jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'echo', arguments: { text: mixedText(random, 900) } } };
    case 1:
      return {
        jsonrpc: '2.0',
        id: index - 1,
        result: { content: [{ type: 'text', text: mixedText(random, 820) }], structuredContent: { echoed: true, chars: index * 7 }, isError: false },
      };
    default:
      return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'echo', data: mixedText(random, 900) } };
  }
}

/** One tools/call result of `blocks` text blocks of about 1 KB each (4,000: about 4 MiB, a search tool's answer). */
function bigResult(random: () => number, blocks: number): unknown {
  const content = Array.from({ length: blocks }, (_, i) => ({ type: 'text', text: `#${i} ${mixedText(random, 1000)}` }));
  return { jsonrpc: '2.0', id: 1, result: { content, isError: false } };
}

export interface WorkloadSizes {
  /** How many ~1 KiB messages the session workloads carry. */
  kibMessages: number;
  /** How many ~1 KB text blocks the one big result holds. */
  bigBlocks: number;
}

/** The benchmark's sizes: a 10,000-message session and one 4 MiB result. */
export const FULL_WORKLOADS: WorkloadSizes = { kibMessages: 10_000, bigBlocks: 4000 };

export function buildWorkloads(sizes: WorkloadSizes = FULL_WORKLOADS): Workload[] {
  const kibMessages = (() => {
    const random = seededRandom(1);
    return Array.from({ length: sizes.kibMessages }, (_, i) => kibMessage(random, i));
  })();
  const big = [bigResult(seededRandom(2), sizes.bigBlocks)];
  const count = sizes.kibMessages % 1000 === 0 ? `${sizes.kibMessages / 1000}k` : String(sizes.kibMessages);
  const bigSize = sizes.bigBlocks >= 1000 ? `${Math.round(sizes.bigBlocks / 1000)}MiB` : `${sizes.bigBlocks}KiB`;
  return [
    { name: `${count} x 1KiB / 4KiB chunks`, messages: kibMessages, chunkBytes: 4 * KIB },
    { name: `${count} x 1KiB / 64B chunks`, messages: kibMessages, chunkBytes: 64 },
    { name: `${bigSize} x1 / 4KiB chunks`, messages: big, chunkBytes: 4 * KIB },
    { name: `${bigSize} x1 / 64KiB chunks`, messages: big, chunkBytes: 64 * KIB },
  ];
}

/** Cut `stream` into chunks of `size` bytes, each a copy with its own buffer, as a pipe delivers them. */
export function cutIntoChunks(stream: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < stream.length; at += size) chunks.push(stream.slice(at, at + size));
  return chunks;
}
