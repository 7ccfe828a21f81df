import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../protocol/framing/index.ts';
import { frameLayout } from '../../protocol/inspect/byte-fields.ts';
import { HexView } from './HexView.tsx';
import { all, renderHtml } from '../testing/render.tsx';
import { utf8Groups } from '../../protocol/inspect/utf8-groups.ts';

const message = { jsonrpc: '2.0', id: 2, result: { text: '你好' } };
const bytes = encodeFrame(message);
const layout = frameLayout(bytes, 'content-length');
const groups = utf8Groups(bytes);

function render(extra: Partial<Parameters<typeof HexView>[0]> = {}) {
  return renderHtml(<HexView bytes={bytes} fields={layout.fields} groups={groups} label="frame" {...extra} />);
}

/** The hex column's cells: a cell is hex when it is not in a .hex-text run (those hold one char). */
function hexCells(html: string): Array<{ className: string; index: number; text: string }> {
  const bytesColumns = all(html, /<span class="hex-bytes">(.*?)<\/span><span class="hex-text">/g).join('');
  return [...bytesColumns.matchAll(/<span class="(hx [^"]*)" data-i="(\d+)"[^>]*>(?:<span class="chunk-tag"[^>]*>\d+<\/span>)?([0-9a-f]{2})<\/span>/g)].map((match) => ({ className: match[1]!, index: Number(match[2]), text: match[3]! }));
}

describe('HexView', () => {
  it('shows an offset column and 16 bytes a row, split 8 + 8', () => {
    const html = render();
    const offsets = all(html, /<span class="hex-offset">([0-9a-f]+)<\/span>/g);
    expect(offsets).toEqual(Array.from({ length: Math.ceil(bytes.length / 16) }, (_, row) => (row * 16).toString(16).padStart(4, '0')));
    const cells = hexCells(html);
    expect(cells).toHaveLength(bytes.length);
    expect(cells.map((cell) => cell.text).join(' ')).toBe(Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' '));
    // The ninth cell of every full row starts the second half.
    expect(cells.filter((cell) => cell.className.includes('hx--split')).map((cell) => cell.index % 16)).toEqual(Array(Math.floor(bytes.length / 16) + (bytes.length % 16 > 8 ? 1 : 0)).fill(8));
  });

  it('gives every byte its field, so header, separator and body look different', () => {
    const cells = hexCells(render());
    const kindOf = (i: number) => /f-([a-z-]+)/.exec(cells[i]!.className)![1];
    expect(kindOf(0)).toBe('header-name');
    expect(kindOf('Content-Length: '.length)).toBe('header-value');
    const separator = layout.fields.find((field) => field.kind === 'separator')!;
    expect(kindOf(separator.start)).toBe('separator');
    expect(kindOf(bytes.length - 1)).toBe('body');
  });

  it('shows printable ASCII as itself, . for CR and LF, and boxes 你 = e4 bd a0 as one character', () => {
    const html = render();
    const text = all(html, /<span class="hex-text">(.*?)<\/span><\/div>/g).join('');
    const texts = [...text.matchAll(/data-i="(\d+)"[^>]*>([^<]*)<\/span>/g)].map((match) => match[2]);
    const separator = layout.fields.find((field) => field.kind === 'separator')!;
    expect(texts.slice(separator.start, separator.end)).toEqual(['.', '.', '.', '.']);
    const ni = groups[0]!;
    expect(texts.slice(ni.start, ni.start + 3)).toEqual(['你', '', '']);
    const cells = hexCells(html);
    expect(cells[ni.start]!.className).toContain('u8 u8-first');
    expect(cells[ni.start + 2]!.className).toContain('u8-last');
    expect(html).toContain('title="你 = e4 bd a0"');
  });

  it('marks where each chunk starts, numbered as the client read them', () => {
    const html = render({ chunks: [{ index: 0, start: 0, end: 7, chunkLength: 7, t: 1 }, { index: 1, start: 7, end: bytes.length, chunkLength: bytes.length - 7, t: 2 }] });
    const starts = hexCells(html).filter((cell) => cell.className.includes('chunk-start'));
    expect(starts.map((cell) => cell.index)).toEqual([0, 7]);
    expect(all(html, /<span class="chunk-tag"[^>]*>(\d+)<\/span>/g)).toEqual(['1', '2']);
  });

  it('lights exactly the bytes it is asked to, and the cursor', () => {
    const cells = hexCells(render({ highlight: { start: 3, end: 9 }, cursor: 20 }));
    expect(cells.filter((cell) => cell.className.includes('is-lit')).map((cell) => cell.index)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(cells.filter((cell) => cell.className.includes('is-cursor')).map((cell) => cell.index)).toEqual([20]);
  });
});
