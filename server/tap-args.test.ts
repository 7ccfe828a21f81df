import { describe, expect, it } from 'vitest';
import { splitCommandWords } from './command-words.ts';
import { parseTapArgs } from './tap-args.ts';

describe('parseTapArgs', () => {
  it('keeps the plain tap exactly as it was: `-- program args`', () => {
    expect(parseTapArgs(['--', 'node', 'server.js', '--flag'])).toEqual({ mode: 'tap', argv: ['node', 'server.js', '--flag'] });
    expect(parseTapArgs(['node'])).toMatchObject({ error: expect.stringContaining('after "--"') });
    expect(parseTapArgs(['--'])).toMatchObject({ error: expect.any(String) });
  });

  it('takes --relay-http for the page hosts\' HTTP server, and only as the plain tap', () => {
    expect(parseTapArgs(['--relay-http', '--', 'node', 'mcp-http.mjs', '--port=0'])).toEqual({ mode: 'tap', argv: ['node', 'mcp-http.mjs', '--port=0'], relay: true });
    expect(parseTapArgs(['--relay-http=1', '--', 'node'])).toEqual({ error: '--relay-http takes no value' });
    expect(parseTapArgs(['--relay-http'])).toEqual({ error: 'nothing to run: give the program after "--"' });
    expect(parseTapArgs(['--relay-http', '--record=x.jsonl', '--', 'node'])).toMatchObject({ error: expect.stringContaining('does not record') });
  });

  it('reads each recording mode', () => {
    expect(parseTapArgs(['--record=t.jsonl', '--', 'node', 's.js'])).toEqual({ mode: 'stdio', record: 't.jsonl', framing: null, argv: ['node', 's.js'], transparent: false });
    expect(parseTapArgs(['--record=t.jsonl', '--transparent', '--', 'node'])).toMatchObject({ mode: 'stdio', transparent: true });
    expect(parseTapArgs(['--framing=content-length', '--record=t.jsonl', '--', 'node'])).toMatchObject({ mode: 'stdio', framing: 'content-length' });
    for (const between of [['--between', `node "my client.js" --x='a b'`], [`--between=node "my client.js" --x='a b'`]]) {
      expect(parseTapArgs(['--record=t.jsonl', ...between, '--', 'srv'])).toEqual({
        mode: 'between',
        record: 't.jsonl',
        framing: null,
        client: ['node', 'my client.js', '--x=a b'],
        argv: ['srv'],
      });
    }
    expect(parseTapArgs(['--record=t.jsonl', '--listen', '--target=http://127.0.0.1:3000/mcp'])).toMatchObject({ mode: 'http', port: 0 });
    const http = parseTapArgs(['--record=t.jsonl', '--listen=8123', '--target=http://127.0.0.1:3000/mcp?x=1']);
    expect(http).toMatchObject({ mode: 'http', port: 8123 });
    expect(http !== 'help' && 'target' in http && http.target.href).toBe('http://127.0.0.1:3000/mcp?x=1');
    expect(parseTapArgs(['--help'])).toBe('help');
  });

  it('names what is wrong', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--record', '--', 'x'], /--record needs a file/],
      [['--record=a', '--record=b', '--', 'x'], /--record given twice/],
      [['--record=a', '--bogus', '--', 'x'], /unknown option --bogus/],
      [['--record=a', 'stray', '--', 'x'], /unexpected argument "stray"/],
      [['--record=a', '--framing=lsp', '--', 'x'], /--framing must be/],
      [['--record=a', '--between'], /--between needs the client command/],
      [['--record=a', '--between', '   ', '--', 'x'], /--between needs the client command/],
      [['--record=a', '--between', 'c'], /no server to run/],
      [['--record=a', '--listen=70000', '--target=http://127.0.0.1:1/'], /port must be a number/],
      [['--record=a', '--listen=abc', '--target=http://127.0.0.1:1/'], /port must be a number/],
      [['--record=a', '--target=http://127.0.0.1:1/'], /--target goes with --listen/],
      [['--record=a', '--listen', '--target=nonsense'], /not a URL/],
      [['--record=a', '--listen', '--target=ws://127.0.0.1:1/'], /http:\/\/ URL/],
      [['--record=a', '--listen', '--target=https://127.0.0.1:1/'], /TLS/],
      [['--record=a', '--listen', '--target=http://127.0.0.1:1/', '--between', 'c'], /different modes/],
      [['--record=a', '--listen', '--target=http://127.0.0.1:1/', '--framing=ndjson'], /--framing is for stdio/],
      [['--record=a', '--listen', '--target=http://127.0.0.1:1/', '--', 'srv'], /runs no program/],
      [['--framing=ndjson', '--', 'x'], /add --record=FILE/],
      [['--transparent', '--', 'x'], /add --record=FILE/],
      [['--record=a', '--transparent=yes', '--', 'x'], /takes no value/],
      [['--record=a', '--transparent', '--between', 'c', '--', 'x'], /different modes/],
      [['--record=a', '--transparent', '--listen', '--target=http://127.0.0.1:1/'], /not --listen/],
    ];
    for (const [args, message] of cases) {
      const result = parseTapArgs(args);
      expect({ args, result }).toEqual({ args, result: { error: expect.stringMatching(message) } });
    }
  });
});

describe('splitCommandWords', () => {
  it('splits as a shell would, without running one', () => {
    expect(splitCommandWords('node  client.js')).toEqual(['node', 'client.js']);
    expect(splitCommandWords(`a 'b c' "d \\"e\\" $f" g\\ h ''`)).toEqual(['a', 'b c', 'd "e" $f', 'g h', '']);
    expect(splitCommandWords(`x="1 2"y`)).toEqual(['x=1 2y']);
    expect(splitCommandWords(`echo $(rm -rf /) ; ls | cat`)).toEqual(['echo', '$(rm', '-rf', '/)', ';', 'ls', '|', 'cat']);
  });

  it('refuses what it cannot split', () => {
    expect(splitCommandWords(`a 'b`)).toEqual({ error: "unbalanced ' quote in the command" });
    expect(splitCommandWords('a \\')).toEqual({ error: 'the command ends with a lone backslash' });
    expect(splitCommandWords('   ')).toEqual({ error: 'the command is empty' });
  });
});
