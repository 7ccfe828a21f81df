import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingTitles, parseInline, parseMarkdown, plainText, safeHref, type Block, type Inline } from './markdown.ts';

describe('parseMarkdown: blocks', () => {
  it('reads headings with and without {#id} anchors', () => {
    expect(parseMarkdown('# Title\n\n## Three shapes {#three-shapes}')).toEqual([
      { type: 'heading', level: 1, id: null, text: 'Title', children: [{ type: 'text', text: 'Title' }] },
      { type: 'heading', level: 2, id: 'three-shapes', text: 'Three shapes', children: [{ type: 'text', text: 'Three shapes' }] },
    ]);
  });

  it('keeps a fenced code block verbatim, markup and all', () => {
    const blocks = parseMarkdown('```ts\nconst a = `x` * 2; // **not bold**\n\n<b>tag</b>\n```\nafter');
    expect(blocks[0]).toEqual({ type: 'code', lang: 'ts', text: 'const a = `x` * 2; // **not bold**\n\n<b>tag</b>' });
    expect(blocks[1]).toEqual({ type: 'paragraph', children: [{ type: 'text', text: 'after' }] });
  });

  it('joins the lines of a paragraph with a space, but not between CJK characters', () => {
    expect(parseMarkdown('one\ntwo')).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: 'one two' }] }]);
    expect(parseMarkdown('中文\n继续')).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: '中文继续' }] }]);
  });

  it('reads bullet and numbered lists, with continuation lines', () => {
    const [list] = parseMarkdown('- a plain\n  continued\n- `b`\n\n1. one\n2. two') as [Block, Block];
    expect(list).toEqual({
      type: 'list',
      ordered: false,
      start: 1,
      items: [[{ type: 'paragraph', children: [{ type: 'text', text: 'a plain continued' }] }], [{ type: 'paragraph', children: [{ type: 'code', text: 'b' }] }]],
    });
    const numbered = parseMarkdown('- a\n\n3. three\n4. four')[1];
    expect(numbered).toMatchObject({ type: 'list', ordered: true, start: 3, items: [[{ type: 'paragraph' }], [{ type: 'paragraph' }]] });
  });

  it('reads a table with alignment, inline markup in cells, and pipes inside code', () => {
    const [table] = parseMarkdown('| code | name |\n| ---: | :---: |\n| -32700 | `a|b` **x** |\n| 1 |');
    expect(table).toEqual({
      type: 'table',
      align: ['right', 'center'],
      header: [[{ type: 'text', text: 'code' }], [{ type: 'text', text: 'name' }]],
      rows: [
        [[{ type: 'text', text: '-32700' }], [{ type: 'code', text: 'a|b' }, { type: 'text', text: ' ' }, { type: 'strong', children: [{ type: 'text', text: 'x' }] }]],
        [[{ type: 'text', text: '1' }], []],
      ],
    });
  });

  it('reads block quotes and rules', () => {
    expect(parseMarkdown('> quoted *text*\n\n---\n')).toEqual([
      { type: 'quote', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'quoted ' }, { type: 'em', children: [{ type: 'text', text: 'text' }] }] }] },
      { type: 'rule' },
    ]);
  });
});

describe('parseInline', () => {
  it('reads code spans, strong, emphasis and links', () => {
    expect(parseInline('a `b*c` **bold** *it* [go](https://x.dev)')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'code', text: 'b*c' },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'bold' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'it' }] },
      { type: 'text', text: ' ' },
      { type: 'link', href: 'https://x.dev', children: [{ type: 'text', text: 'go' }] },
    ]);
  });

  it('leaves snake_case, a lone star and unclosed markers as text', () => {
    expect(plainText(parseInline('snake_case_name 2 * 3 and *open'))).toBe('snake_case_name 2 * 3 and *open');
    expect(parseInline('snake_case_name')).toEqual([{ type: 'text', text: 'snake_case_name' }]);
  });

  it('takes a backslash-escaped marker literally', () => {
    expect(parseInline('\\*not em\\*')).toEqual([{ type: 'text', text: '*not em*' }]);
  });

  it('never loses or invents characters of plain text (property)', () => {
    // Text without any markup character must come back unchanged.
    const plain = fc.string({ unit: fc.constantFrom(...'abc 中文,.;:!?-=0123456789'.split('')) });
    fc.assert(fc.property(plain, (text) => plainText(parseInline(text)) === text));
  });

  it('never throws, whatever the input (property)', () => {
    const markdownish = fc.string({ unit: fc.constantFrom(...'ab *_`[]()#|>-\n1. {}\\'.split('')) });
    fc.assert(fc.property(markdownish, (text) => Array.isArray(parseMarkdown(text))));
  });
});

describe('safeHref', () => {
  it('allows web, mail and same-site links and refuses script URLs', () => {
    expect(safeHref('https://modelcontextprotocol.io')).toBe('https://modelcontextprotocol.io');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('#ids')).toBe('#ids');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref(' JavaScript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
  });
});

describe('the real lessons', () => {
  const root = join(import.meta.dirname, '../../../exercises');
  const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory());

  it('every step a spec names is a heading of the lesson, in both languages', () => {
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const meta = JSON.parse(readFileSync(join(root, folder.name, 'meta.json'), 'utf8')) as { steps: Record<string, string> };
      for (const language of ['en', 'zh-CN']) {
        const titles = headingTitles(parseMarkdown(readFileSync(join(root, folder.name, `content.${language}.md`), 'utf8')));
        for (const step of Object.values(meta.steps)) expect(titles[step], `${folder.name} ${language} #${step}`).toBeTruthy();
      }
    }
  });

  it('leaves no markup characters behind in headings, paragraphs or list items', () => {
    const leftovers: string[] = [];
    const visit = (blocks: Block[]) => {
      for (const block of blocks) {
        if (block.type === 'paragraph' || block.type === 'heading') check(block.children);
        else if (block.type === 'list') block.items.forEach(visit);
        else if (block.type === 'quote') visit(block.children);
      }
    };
    const check = (nodes: Inline[]) => {
      for (const node of nodes) {
        if (node.type === 'text' && /\*\*|`|\]\(/.test(node.text)) leftovers.push(node.text);
        if (node.type === 'strong' || node.type === 'em' || node.type === 'link') check(node.children);
      }
    };
    for (const folder of folders) {
      for (const file of readdirSync(join(root, folder.name)).filter((name) => name.endsWith('.md'))) visit(parseMarkdown(readFileSync(join(root, folder.name, file), 'utf8')));
    }
    expect(leftovers).toEqual([]);
  });
});
