// One term per concept in the Chinese text (docs/glossary.zh-CN.md). Every concept below has the
// term the glossary chose and the variants that crept in before; none of the variants may appear
// in what a Chinese reader sees: lessons, hints, starters and test names (exercises/**/*.zh-CN.*),
// the UI text (src/locales/zh-CN/**) and the speaker notes (src/app/presenter/notes.zh-CN.ts). A variant that is fine in
// another sense (解析 is "parse" as well as a wrong "resolve") is written as a pattern narrow
// enough to catch only the wrong sense.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

interface Concept {
  /** The English concept and the one Chinese term the glossary chose for it. */
  concept: string;
  term: string;
  forbidden: RegExp[];
}

export const CONCEPTS: Concept[] = [
  { concept: 'exercise N', term: '练习 3', forbidden: [/第\s*\d+(\s*[、，]\s*\d+)*\s*关/, /第[一二三四五六七八九十]+关/] },
  { concept: 'pending table', term: '待响应表', forbidden: [/待应答表/, /pending\s*表/, /等待表/] },
  { concept: 'Chapter loop (view)', term: '本章闭环', forbidden: [/章节闭环/, /本章循环/, /章节循环/, /\*\*本章闭环\*\*/] },
  { concept: 'late answer (after a timeout)', term: '迟到的回答', forbidden: [/迟到应答/, /迟到的?响应/] },
  { concept: 'priming event', term: '起始事件', forbidden: [/预备事件/, /预热事件/, /引子事件/, /做预备/] },
  { concept: 'resolve (a promise)', term: 'resolve', forbidden: [/promise[^。；\n]{0,30}解析/i, /解析出状态码/, /解决为/] },
  {
    concept: 'speak a protocol (use it)',
    term: '使用 / 遵循',
    forbidden: [/说\s*(HTTP|NDJSON|Streamable HTTP|JSON-RPC|MCP)/, /的语言/, /(仍|还|都|也)(在|然)?说(它|这一套|握手)/, /说的是\s*(NDJSON|握手)/, /两种都得会说/, /会说的/],
  },
  { concept: 'legacy (era)', term: '旧时代', forbidden: [/旧式/, /遗留服务器/, /老式服务器/] },
  { concept: 'session id', term: '会话 id', forbidden: [/会话\s*ID/] },
  { concept: 'header mismatch (-32020)', term: '请求头不匹配', forbidden: [/请求头不一致/, /头部不匹配/] },
  { concept: 'settle (a pending request)', term: '了结', forbidden: [/结算/] },
  { concept: 'state machine (measure word)', term: '一个状态机', forbidden: [/一台状态机/] },
  { concept: 'initialized gate / approval gate', term: '门禁 / 审批门', forbidden: [/闸门/, /风险门/] },
];

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const chineseFiles = [
  ...filesUnder(join(PROJECT_ROOT, 'exercises'), (path) => /\.zh-CN\.[^/]+$/.test(path)),
  ...filesUnder(join(PROJECT_ROOT, 'src', 'locales', 'zh-CN'), () => true),
  // The presenter's speaker notes live in code, beside the English ones.
  join(PROJECT_ROOT, 'src', 'app', 'presenter', 'notes.zh-CN.ts'),
];

/** Every `file:line: text` where one of the concept's variants occurs. */
function variantsOf(concept: Concept): string[] {
  return chineseFiles.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => concept.forbidden.filter((pattern) => pattern.test(line)).map((pattern) => `${relative(PROJECT_ROOT, file)}:${index + 1} ${pattern}: ${line.trim().slice(0, 120)}`)),
  );
}

describe('Chinese text holds to docs/glossary.zh-CN.md: one term per concept', () => {
  it('finds the Chinese lessons, hints and UI text to scan', () => {
    const names = chineseFiles.map((file) => relative(PROJECT_ROOT, file));
    expect(names).toContain(join('exercises', '03-client', 'content.zh-CN.md'));
    expect(names).toContain(join('exercises', '03-client', 'hints.zh-CN.md'));
    expect(names).toContain(join('src', 'locales', 'zh-CN', 'presenter.json'));
    expect(names).toContain(join('src', 'app', 'presenter', 'notes.zh-CN.ts'));
  });

  it.each(CONCEPTS.map((concept) => [concept.concept, concept] as const))('%s: no variant of the chosen term', (_name, concept) => {
    expect(variantsOf(concept), `write “${concept.term}” instead`).toEqual([]);
  });

  it('every concept is in the glossary with its chosen term', () => {
    const glossary = readFileSync(join(PROJECT_ROOT, 'docs', 'glossary.zh-CN.md'), 'utf8');
    const missing = CONCEPTS.filter((concept) => !glossary.includes(concept.term.split(' / ')[0]!));
    expect(missing.map((concept) => concept.concept)).toEqual([]);
  });

  it('the patterns catch what they are meant to (a variant in a line is found)', () => {
    const caught = (text: string) => CONCEPTS.filter((concept) => concept.forbidden.some((pattern) => pattern.test(text))).map((concept) => concept.concept);
    expect(caught('分帧已经在第 2 关完成')).toEqual(['exercise N']);
    expect(caught('在转发的字节之上说 HTTP/1.1')).toEqual(['speak a protocol (use it)']);
    expect(caught('发出一个请求，返回的 promise 以状态码 resolve')).toEqual([]);
    expect(caught('`parseMessage` 把 JSON 文本解析出来')).toEqual([]);
  });
});
