import { describe, expect, it } from 'vitest';
import { readSamplingAsk, SCRIPTED_MODEL, scriptedSamplingAnswer } from './scripted-sampling.ts';

describe('the scripted model answering sampling/createMessage', () => {
  it('reads the last user message, the system prompt and maxTokens; tolerates anything else', () => {
    const params = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'first' } },
        { role: 'assistant', content: { type: 'text', text: 'reply' } },
        { role: 'user', content: { type: 'text', text: 'second' } },
      ],
      systemPrompt: 'Be brief.',
      maxTokens: 50,
    };
    expect(readSamplingAsk(params)).toEqual({ question: 'second', systemPrompt: 'Be brief.', maxTokens: 50 });
    expect(readSamplingAsk(null)).toEqual({ question: '', systemPrompt: null, maxTokens: null });
    expect(readSamplingAsk({ messages: [{ role: 'user', content: { type: 'image', data: '' } }] }).question).toBe('');
  });

  it('answers as a CreateMessageResult, the same words every time, in the learner’s language', () => {
    const ask = { question: 'Why?', systemPrompt: null, maxTokens: null };
    const en = scriptedSamplingAnswer(ask, 'en');
    expect(en).toEqual(scriptedSamplingAnswer(ask, 'en'));
    expect(en).toMatchObject({ role: 'assistant', model: SCRIPTED_MODEL, stopReason: 'endTurn', content: { type: 'text', text: expect.stringContaining('"Why?"') } });
    expect(scriptedSamplingAnswer(ask, 'zh-CN').content.text).toContain('「Why?」');
  });
});
