// A small Markdown reader for the lessons and hints: exactly the subset they are written in
// (headings with `{#id}` anchors, paragraphs, lists, fenced code, tables, block quotes, inline
// code, emphasis, links). It returns a tree of plain data that Markdown.tsx turns into React
// elements, so no text ever reaches the page as HTML: there is nothing to escape and no way for a
// lesson to inject markup. Anything it does not understand stays visible as text.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { type: 'heading'; level: number; id: string | null; text: string; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'table'; align: Align[]; header: Inline[][]; rows: Inline[][][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' };

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const HEADING_ID = /[ \t]*\{#([A-Za-z][\w-]*)\}$/;
const FENCE = /^[ ]{0,3}(`{3,}|~{3,})[ \t]*([\w+-]*)/;
const BULLET = /^([ ]{0,3})([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const RULE = /^[ ]{0,3}([-*_])([ \t]*\1){2,}[ \t]*$/;
const TABLE_SEPARATOR = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(marker)) body.push(lines[i++] as string);
      i += 1; // the closing fence (or the end of the text)
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      let text = heading[2] as string;
      const id = HEADING_ID.exec(text);
      if (id) text = text.slice(0, id.index);
      const children = parseInline(text);
      blocks.push({ type: 'heading', level: (heading[1] as string).length, id: id ? (id[1] as string) : null, text: plainText(children), children });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i += 1;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1] as string) && (lines[i + 1] as string).includes('-')) {
      const header = splitRow(line);
      const align = splitRow(lines[i + 1] as string).map(alignOf);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && (lines[i] as string).trim() !== '' && (lines[i] as string).includes('|')) {
        const cells = splitRow(lines[i] as string);
        rows.push(header.map((_, column) => parseInline(cells[column] ?? '')));
        i += 1;
      }
      blocks.push({ type: 'table', align: header.map((_, column) => align[column] ?? null), header: header.map(parseInline), rows });
      continue;
    }
    if (/^[ ]{0,3}>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^[ ]{0,3}>/.test(lines[i] as string)) quoted.push((lines[i++] as string).replace(/^[ ]{0,3}>[ ]?/, ''));
      blocks.push({ type: 'quote', children: parseBlocks(quoted) });
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const next = readList(lines, i);
      blocks.push(next.list);
      i = next.end;
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && !startsOtherBlock(lines, i)) paragraph.push((lines[i++] as string).trim());
    blocks.push({ type: 'paragraph', children: parseInline(joinLines(paragraph)) });
  }
  return blocks;
}

function startsOtherBlock(lines: string[], i: number): boolean {
  const line = lines[i] as string;
  return line.trim() === '' || FENCE.test(line) || HEADING.test(line) || RULE.test(line) || /^[ ]{0,3}>/.test(line) || BULLET.test(line);
}

/** A list: items start with the same kind of marker; indented lines continue the item. */
function readList(lines: string[], start: number): { list: Block; end: number } {
  const first = BULLET.exec(lines[start] as string) as RegExpExecArray;
  const ordered = /\d/.test(first[2] as string);
  const indent = (first[1] as string).length;
  const items: string[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i] as string;
    const bullet = BULLET.exec(line);
    if (bullet && (bullet[1] as string).length === indent && /\d/.test(bullet[2] as string) === ordered) {
      items.push([bullet[3] as string]);
      i += 1;
      continue;
    }
    if (line.trim() === '') {
      // A blank line ends the list unless the next line is indented (a continued item).
      const following = lines[i + 1];
      if (following !== undefined && /^\s{2,}\S/.test(following)) {
        items[items.length - 1]?.push('');
        i += 1;
        continue;
      }
      break;
    }
    if (/^\s+\S/.test(line) || !startsOtherBlock(lines, i)) {
      items[items.length - 1]?.push(line.replace(/^\s{1,4}/, ''));
      i += 1;
      continue;
    }
    break;
  }
  const startNumber = ordered ? Number.parseInt(first[2] as string, 10) : 1;
  return { list: { type: 'list', ordered, start: startNumber, items: items.map((item) => parseBlocks(item)) }, end: i };
}

/** Cells of a table row; `\|` is a pipe inside a cell, and pipes inside `code` do not split. */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  const text = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (char === '\\' && text[i + 1] === '|') {
      cell += '|';
      i += 1;
    } else if (char === '`') {
      inCode = !inCode;
      cell += char;
    } else if (char === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
}

// CJK text is written without spaces: a line break between two CJK characters must not become one.
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

function joinLines(lines: string[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line;
    else text += CJK.test(text.at(-1) ?? '') && CJK.test(line[0] ?? '') ? line : ` ${line}`;
  }
  return text;
}

// ---- inline ----

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length && /[\\`*_[\]()#|{}<>!.+-]/.test(text[i + 1] as string)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(text.slice(i))?.[0] ?? '`';
      const close = text.indexOf(run, i + run.length);
      if (close !== -1) {
        flush();
        let code = text.slice(i + run.length, close);
        // One space of padding on both sides lets a code span start or end with a backtick.
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
        out.push({ type: 'code', text: code });
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }
    if (char === '[') {
      const link = readLink(text, i);
      if (link) {
        flush();
        out.push({ type: 'link', href: link.href, children: parseInline(link.label) });
        i = link.end;
        continue;
      }
    }
    if (char === '*' || char === '_') {
      const emphasis = readEmphasis(text, i);
      if (emphasis) {
        flush();
        out.push(emphasis.node);
        i = emphasis.end;
        continue;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return out;
}

function readLink(text: string, start: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '`') {
      const end = text.indexOf('`', i + 1);
      if (end === -1) break;
      i = end;
    } else if (text[i] === '[') depth += 1;
    else if (text[i] === ']' && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close === -1 || text[close + 1] !== '(') return null;
  const end = text.indexOf(')', close + 2);
  if (end === -1) return null;
  const href = text.slice(close + 2, end).trim().split(/\s+/)[0] ?? '';
  return { label: text.slice(start + 1, close), href, end: end + 1 };
}

function readEmphasis(text: string, start: number): { node: Inline; end: number } | null {
  const char = text[start] as string;
  const double = text[start + 1] === char;
  const marker = double ? char + char : char;
  const after = text[start + marker.length];
  // An opening marker is followed by a non-space; `_` only opens outside a word (snake_case stays).
  if (after === undefined || /\s/.test(after)) return null;
  if (char === '_' && /\w/.test(text[start - 1] ?? '')) return null;
  let search = start + marker.length;
  for (;;) {
    const close = text.indexOf(marker, search);
    if (close === -1) return null;
    const before = text[close - 1] ?? '';
    const next = text[close + marker.length] ?? '';
    const inCode = (text.slice(start, close).match(/`/g) ?? []).length % 2 === 1;
    const validClose = !/\s/.test(before) && close > start + marker.length && !inCode && (char !== '_' || !/\w/.test(next)) && (double || next !== char);
    if (validClose) {
      const inner = parseInline(text.slice(start + marker.length, close));
      return { node: double ? { type: 'strong', children: inner } : { type: 'em', children: inner }, end: close + marker.length };
    }
    search = close + 1;
  }
}

/** The text of inline nodes without markup, e.g. for a heading's accessible name. */
export function plainText(nodes: readonly Inline[]): string {
  return nodes.map((node) => (node.type === 'text' || node.type === 'code' ? node.text : plainText(node.children))).join('');
}

/**
 * Links a lesson may contain: web pages, mail, and anchors or paths on this site. Anything else
 * (`javascript:`, `data:`…) is shown as text, not followed.
 */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null;
  return trimmed === '' ? null : trimmed;
}

/** Heading id → heading text, for links from a test to the lesson step it checks. */
export function headingTitles(blocks: readonly Block[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const block of blocks) if (block.type === 'heading' && block.id !== null) titles[block.id] = block.text;
  return titles;
}
