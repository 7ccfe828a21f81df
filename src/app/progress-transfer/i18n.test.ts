import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { progressTransferEn, progressTransferZhCN } from './i18n.ts';
import { importProblemText, lineCount, linkProblemText } from './messages.ts';
import { ensureTransferResources, TRANSFER_NAMESPACE_KEY, type TransferText } from './text.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}
const leaf = (resource: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('progress transfer text', () => {
  it('has the same keys and interpolation variables in English and Simplified Chinese, all translated', () => {
    expect(keyPaths(progressTransferZhCN).sort()).toEqual(keyPaths(progressTransferEn).sort());
    for (const path of keyPaths(progressTransferEn)) {
      const en = leaf(progressTransferEn, path) as string;
      const zh = leaf(progressTransferZhCN, path) as string;
      expect(zh.trim(), path).not.toBe('');
      expect(variables(zh), path).toEqual(variables(en));
      expect(zh, path).not.toBe(en);
      expect(zh, path).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('adds itself to an i18next instance that lacks it, once, and every refusal has a sentence in both languages', async () => {
    const instance = i18next.createInstance();
    await instance.init({ resources: { en: { translation: { app: { title: 'x' } } }, 'zh-CN': { translation: {} } }, lng: 'en', interpolation: { escapeValue: false } });
    ensureTransferResources(instance);
    ensureTransferResources(instance);
    expect(instance.t('app.title')).toBe('x'); // what was there stays
    const lookup = instance.t as unknown as (key: string, values?: object) => string; // page keys are typed; these are not merged yet
    const t: TransferText = (key, values) => lookup(`${TRANSFER_NAMESPACE_KEY}.${key}`, values);
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
    for (const sentence of english) expect(sentence).not.toMatch(/progressTransfer\.|\{\{/);
    await instance.changeLanguage('zh-CN');
    const chinese = sentences();
    expect(chinese[3]).toBe('“a.json”已损坏：字段 progress.exercises["01-jsonrpc"].code 的值无效。没有做任何改动。');
    for (const sentence of chinese) expect(sentence).toMatch(/[\u4e00-\u9fff]/);
  });

  it('counts lines whatever the line ends', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\nb'), lineCount('a\r\nb\r\n'), lineCount('a\rb')]).toEqual([0, 1, 2, 3, 2]);
  });
});
