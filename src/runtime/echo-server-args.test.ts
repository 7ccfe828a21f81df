import { describe, expect, it } from 'vitest';
import { FAULT_DESCRIPTIONS, STDIO_FAULT_NAMES } from '../protocol/faults.ts';
import { FRAMING_NAMES } from '../protocol/framing/types.ts';
import { DEFAULT_FRAMING, parseEchoServerArgs, usageText } from './echo-server-args.ts';

describe('parseEchoServerArgs', () => {
  it('defaults to the spec\'s stdio framing (NDJSON) with no faults', () => {
    expect(DEFAULT_FRAMING).toBe('ndjson');
    expect(parseEchoServerArgs([])).toEqual({ kind: 'run', options: { framing: 'ndjson', faults: [] } });
  });

  it('takes --framing and repeated --fault, in = and separate-value forms, deduplicating faults', () => {
    expect(parseEchoServerArgs(['--framing=ndjson', '--fault=stdout-log', '--fault', 'no-gate', '--fault=stdout-log'])).toEqual({
      kind: 'run',
      options: { framing: 'ndjson', faults: ['stdout-log', 'no-gate'] },
    });
    expect(parseEchoServerArgs(['--framing', 'content-length', '--fault=char-length'])).toEqual({
      kind: 'run',
      options: { framing: 'content-length', faults: ['char-length'] },
    });
  });

  it('accepts every stdio fault name (char-length with its framing), and refuses the HTTP-only one', () => {
    expect(parseEchoServerArgs(['--fault=close-streams-early'])).toEqual({ kind: 'usage-error', message: expect.stringContaining('only applies to the Streamable HTTP server') });
    for (const fault of STDIO_FAULT_NAMES) {
      const parsed = parseEchoServerArgs(['--framing=content-length', `--fault=${fault}`]);
      expect(parsed).toEqual({ kind: 'run', options: { framing: 'content-length', faults: [fault] } });
    }
  });

  it('asks for help with --help or -h, even after other options', () => {
    expect(parseEchoServerArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseEchoServerArgs(['--framing=ndjson', '-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--verbose'], /unknown option/],
    [['stdio'], /unknown option/],
    [['--framing=xml'], /unknown framing: xml/],
    [['--framing'], /needs a value/],
    [['--framing='], /needs a value/],
    [['--fault=explode'], /unknown fault: explode/],
    [['--fault'], /needs a value/],
    [['--framing=ndjson', '--fault=char-length'], /char-length only applies to --framing=content-length/],
    [['--fault=char-length', '--framing=ndjson'], /char-length only applies/],
  ])('refuses %j', (argv, message) => {
    const parsed = parseEchoServerArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.message : '').toMatch(message);
  });
});

describe('usageText', () => {
  it('lists every framing and every stdio fault with its description', () => {
    const text = usageText();
    for (const framing of FRAMING_NAMES) expect(text).toContain(framing);
    for (const fault of STDIO_FAULT_NAMES) expect(text).toContain(`${fault}`);
    for (const fault of STDIO_FAULT_NAMES) expect(text).toContain(FAULT_DESCRIPTIONS[fault]);
    expect(text).not.toContain('close-streams-early');
    expect(text).toMatch(/^usage: node echo-server\.mjs/);
  });

  it('takes --era=dual|legacy|modern, leaving the options unchanged for the default', () => {
    expect(parseEchoServerArgs(['--era=dual'])).toEqual({ kind: 'run', options: { framing: 'ndjson', faults: [] } });
    expect(parseEchoServerArgs(['--era', 'modern', '--framing=ndjson'])).toEqual({ kind: 'run', options: { framing: 'ndjson', faults: [], era: 'modern' } });
    expect(parseEchoServerArgs(['--era=legacy'])).toMatchObject({ kind: 'run', options: { era: 'legacy' } });
    expect(parseEchoServerArgs(['--era=future'])).toEqual({ kind: 'usage-error', message: 'unknown era: future' });
  });
});
