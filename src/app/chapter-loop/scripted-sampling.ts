// The chapter loop's scripted model answering a server's sampling/createMessage: deterministic like
// the scripted turn (no network, no API key, the same words every time), and shaped as the
// specification's CreateMessageResult (2025-11-25, client/sampling). It only proposes the answer:
// whoever calls it decides, through the approval gate, whether the server gets it.

export const SCRIPTED_MODEL = 'scripted-model';

export interface CreateMessageResult {
  role: 'assistant';
  content: { type: 'text'; text: string };
  model: string;
  stopReason: 'endTurn';
}

/** What the server asked, as a person reviewing it reads it. */
export interface SamplingAsk {
  /** The text of the last user message (what the model is asked). */
  question: string;
  systemPrompt: string | null;
  maxTokens: number | null;
}

export function readSamplingAsk(params: unknown): SamplingAsk {
  const record = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const messages = Array.isArray(record.messages) ? (record.messages as { role?: unknown; content?: { type?: unknown; text?: unknown } }[]) : [];
  const last = [...messages].reverse().find((message) => message.role === 'user');
  const text = last?.content?.type === 'text' && typeof last.content.text === 'string' ? last.content.text : '';
  return {
    question: text,
    systemPrompt: typeof record.systemPrompt === 'string' ? record.systemPrompt : null,
    maxTokens: typeof record.maxTokens === 'number' ? record.maxTokens : null,
  };
}

export function scriptedSamplingAnswer(ask: SamplingAsk, language: string): CreateMessageResult {
  const text = language.startsWith('zh')
    ? `（脚本模型）关于「${ask.question}」：我每次都这样回答，不联网，也不需要密钥。`
    : `(scripted model) About "${ask.question}": I answer the same way every time, with no network and no API key.`;
  return { role: 'assistant', content: { type: 'text', text }, model: SCRIPTED_MODEL, stopReason: 'endTurn' };
}
