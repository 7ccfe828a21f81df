import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../i18n/testing.ts';
import type { ProgressSeen } from './http-session-store.ts';
import { progressLine, progressSeenText } from './progress-seen-text.ts';
import type { ProtocolText } from './text.ts';

const text = (language: 'en' | 'zh-CN') => createTestI18n(language).getFixedT(language, 'protocol') as unknown as ProtocolText;

// What the project's servers send around a tools/call (src/protocol/tool-progress.ts).
const seen: ProgressSeen[] = [
  { progress: '0', total: '1', message: 'started' },
  { progress: '1', total: '1', message: 'finished' },
];

describe('the HTTP stepper’s progress line', () => {
  it('in English reads as before', () => {
    expect(progressLine(text('en'), seen)).toBe('0/1 started · 1/1 finished');
  });

  it('in Chinese words the two messages the project’s servers send', () => {
    expect(progressLine(text('zh-CN'), seen)).toBe('0/1 已开始 · 1/1 已完成');
  });

  it('shows any other message as the server sent it, and none when there was none', () => {
    const t = text('zh-CN');
    expect(progressSeenText(t, { progress: '3', total: '?', message: 'halfway' })).toBe('3/? halfway');
    expect(progressSeenText(t, { progress: '2', total: '5', message: null })).toBe('2/5');
  });
});
