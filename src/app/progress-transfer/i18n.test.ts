// The sentences the import and the share link show when they refuse something, in both languages
// (the text's completeness itself: tests/i18n/completeness.test.ts).

import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../i18n/testing.ts';
import { importProblemText, lineCount, linkProblemText } from './messages.ts';
import { TRANSFER_NAMESPACE, type TransferText } from './text.ts';

describe('progress transfer text', () => {
  it('has a sentence in both languages for every refusal', async () => {
    const instance = createTestI18n('en');
    const lookup = instance.getFixedT(null, TRANSFER_NAMESPACE) as unknown as (key: string, values?: object) => string;
    const t: TransferText = (key, values) => lookup(key, values);
    const sentences = () => [
      importProblemText(t, 'a.json', { reason: 'not-json', detail: 'Unexpected end of JSON input' }),
      importProblemText(t, 'a.json', { reason: 'not-ours' }),
      importProblemText(t, 'a.json', { reason: 'newer-version', version: 3 }),
      importProblemText(t, 'a.json', { reason: 'bad-field', field: 'progress.exercises["01-jsonrpc"].code', expected: 'text' }),
      importProblemText(t, 'a.json', { reason: 'too-large', size: 9, limit: 5 }),
      importProblemText(t, 'a.json', { reason: 'read-failed', detail: 'NotReadableError' }),
      linkProblemText(t, { reason: 'damaged', detail: 'x' }),
      linkProblemText(t, { reason: 'newer-version', version: '2' }),
      linkProblemText(t, { reason: 'too-large', size: 9000, limit: 8000 }),
      linkProblemText(t, { reason: 'unknown-exercise', exerciseId: '42-x' }),
    ];
    const english = sentences();
    expect(english[3]).toBe('“a.json” is damaged: the field progress.exercises["01-jsonrpc"].code does not hold a valid value. Nothing was changed.');
    expect(english[2]).toContain('newer version');
    expect(english[9]).toContain('42-x');
    for (const sentence of english) expect(sentence).not.toMatch(/[pP]roblems\.|\{\{/);
    await instance.changeLanguage('zh-CN');
    const chinese = sentences();
    expect(chinese[3]).toBe('“a.json”已损坏：字段 progress.exercises["01-jsonrpc"].code 的值无效。没有做任何改动。');
    for (const sentence of chinese) expect(sentence).toMatch(/[\u4e00-\u9fff]/);
  });

  it('counts lines whatever the line ends', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\nb'), lineCount('a\r\nb\r\n'), lineCount('a\rb')]).toEqual([0, 1, 2, 3, 2]);
  });
});
