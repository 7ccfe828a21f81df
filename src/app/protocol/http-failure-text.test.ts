import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../i18n/testing.ts';
import { httpFailureText } from './http-failure-text.ts';
import type { ProtocolText } from './text.ts';

const text = (language: 'en' | 'zh-CN') => createTestI18n(language).getFixedT(language, 'protocol') as unknown as ProtocolText;

describe("the HTTP stepper's Stopped line", () => {
  const timeout = {
    status: 'failed',
    reason: 'nothing on the wire within 3 s: expected the GET stream the client opens after initialized',
    why: { code: 'wire-timeout', seconds: 3, step: 'listen' },
  } as const;

  it('in English says what the store wrote', () => {
    expect(httpFailureText(text('en'), timeout)).toBe(timeout.reason);
    expect(httpFailureText(text('en'), { status: 'failed', reason: 'the session ended', why: { code: 'session-ended' } })).toBe('the session ended');
  });

  it('in Chinese says it in Chinese', () => {
    expect(httpFailureText(text('zh-CN'), timeout)).toBe('3 秒内线上没有任何动静：本应看到客户端在 initialized 之后打开的 GET 流');
    expect(httpFailureText(text('zh-CN'), { status: 'failed', reason: 'the session ended', why: { code: 'session-ended' } })).toBe('会话已经结束');
  });

  it("shows the client's own error as it was thrown", () => {
    expect(httpFailureText(text('zh-CN'), { status: 'failed', reason: 'TODO: POST each message' })).toBe('TODO: POST each message');
  });
});
