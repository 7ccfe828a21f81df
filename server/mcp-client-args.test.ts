import { describe, expect, it } from 'vitest';
import { parseMcpClientArgs } from './mcp-client-args.ts';

describe('parseMcpClientArgs', () => {
  it('takes a URL, auto era by default', () => {
    expect(parseMcpClientArgs(['http://127.0.0.1:3000/mcp'])).toEqual({ kind: 'run', era: 'auto', target: { kind: 'http', url: 'http://127.0.0.1:3000/mcp' } });
  });

  it('takes a server command after --, its own flags untouched', () => {
    expect(parseMcpClientArgs(['--era=legacy', '--', 'node', 'echo-server.mjs', '--era=modern'])).toEqual({
      kind: 'run',
      era: 'legacy',
      target: { kind: 'stdio', command: 'node', args: ['echo-server.mjs', '--era=modern'] },
    });
  });

  it.each([
    [[], /no server/],
    [['--'], /needs a server command/],
    [['--era=2026'], /unknown era/],
    [['http://a/mcp', 'http://b/mcp'], /one URL only/],
    [['http://a/mcp', '--', 'node'], /not both/],
    [['stdio'], /unknown argument/],
  ])('refuses %j', (argv, message) => {
    const parsed = parseMcpClientArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.message : '').toMatch(message);
  });

  it('asks for help', () => {
    expect(parseMcpClientArgs(['--help'])).toEqual({ kind: 'help' });
  });
});
