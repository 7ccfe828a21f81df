import { describe, expect, it } from 'vitest';
import { countCalls, defaultScript, parseScript, quoteObservations, scriptToText, validateScript, MAX_CALLS } from './agent-script.ts';

const codes = (text: string) => {
  const parsed = parseScript(text);
  return parsed.ok ? [] : parsed.errors.map((error) => `${error.path}:${error.code}`);
};

describe('the scripted turn', () => {
  it('accepts the default script in both languages, round-tripped through its text', () => {
    for (const language of ['en', 'zh-CN']) {
      const script = defaultScript(language);
      const parsed = parseScript(scriptToText(script));
      expect(parsed).toEqual({ ok: true, script });
      expect(countCalls(script)).toBe(3);
      expect(script.turns.flatMap((turn) => turn.calls.map((call) => `${call.server}/${call.tool}`))).toEqual(['echo/echo', 'echo/add', 'echo/delete_file']);
    }
    expect(defaultScript('zh-CN').user).not.toBe(defaultScript('en').user);
  });

  it('says where the JSON is broken', () => {
    const parsed = parseScript('{"user": "hi",');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0]).toMatchObject({ path: '', code: 'json' });
    expect(codes('[]')).toEqual([':notObject']);
  });

  it('names every wrong field by its path', () => {
    const text = JSON.stringify({
      user: '',
      turns: [{ say: 3, calls: [{ tool: 'bad name!', args: [] }, 'x', { tool: 'echo', server: 5 }] }, 'turn', { calls: null }],
      final: 7,
    });
    expect(codes(text)).toEqual([
      'user:userMissing',
      'final:finalMissing',
      'turns[0].say:sayNotString',
      'turns[0].calls[0].tool:toolIllegal',
      'turns[0].calls[0].args:argsNotObject',
      'turns[0].calls[1]:callNotObject',
      'turns[0].calls[2].server:serverNotString',
      'turns[1]:turnNotObject',
      'turns[2].calls:callsMissing',
    ]);
  });

  it('refuses a quote of an observation that will not exist, and too many calls', () => {
    const base = { user: 'u', turns: [{ calls: [{ tool: 'echo', args: {} }] }] };
    expect(codes(JSON.stringify({ ...base, final: 'got {{1}} and {{2}}' }))).toEqual(['final:quoteOutOfRange']);
    const many = { user: 'u', turns: [{ calls: Array.from({ length: MAX_CALLS + 1 }, () => ({ tool: 'echo' })) }], final: '' };
    expect(codes(JSON.stringify(many))).toEqual(['turns:tooManyCalls']);
  });

  it('fills in missing arguments as {} and keeps server only when given', () => {
    const parsed = validateScript({ user: 'u', turns: [{ calls: [{ tool: 'get_time' }] }], final: 'now {{ 1 }}' });
    expect(parsed).toEqual({ ok: true, script: { user: 'u', turns: [{ calls: [{ tool: 'get_time', args: {} }] }], final: 'now {{ 1 }}' } });
  });

  it('quotes observations by number', () => {
    expect(quoteObservations('a {{1}} b {{2}} c {{3}}', ['one', 'two'])).toBe('a one b two c {{3}}');
  });
});
