// Command-line options of the echo server: which framing it speaks and which faults it injects.
// Parsing is pure (argv in, a closed outcome out) so it is tested without spawning anything.

import { FRAMING_NAMES, type FramingName } from '../protocol/framing/types.ts';
import { FAULT_DESCRIPTIONS, isFaultName, isHttpOnlyFault, STDIO_FAULT_NAMES, type FaultName } from '../protocol/faults.ts';

/**
 * Newline-delimited JSON is the MCP specification's stdio transport, so a spec-following client
 * (any official SDK) meets the server without flags; the chapter's Content-Length framing is
 * `--framing=content-length`. Every host passes its framing explicitly.
 */
export const DEFAULT_FRAMING: FramingName = 'ndjson';

/** Faults that only mean something for one framing. */
const FRAMING_ONLY_FAULTS: Partial<Record<FaultName, FramingName>> = {
  // A wrong Content-Length value: NDJSON has no header to get wrong.
  'char-length': 'content-length',
};

/**
 * Which protocol era the server speaks: both (the default: initialize selects the handshake era,
 * a `_meta` claim the 2026-07-28 one), only the handshake era (what every pre-2026 server is; a
 * dual-era client's probe falls back against it), or only 2026-07-28 (a legacy client has no way in).
 */
export const ECHO_ERAS = ['dual', 'legacy', 'modern'] as const;
export type EchoEra = (typeof ECHO_ERAS)[number];

export interface EchoServerOptions {
  framing: FramingName;
  faults: FaultName[];
  /** Default 'dual'. */
  era?: EchoEra;
}

export type EchoServerArgs =
  | { kind: 'run'; options: EchoServerOptions }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

export function parseEchoServerArgs(argv: readonly string[]): EchoServerArgs {
  let framing: FramingName = DEFAULT_FRAMING;
  let era: EchoEra = 'dual';
  const faults = new Set<FaultName>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    const [flag, inlineValue] = splitOption(arg);
    if (flag !== '--framing' && flag !== '--fault' && flag !== '--era') return usageError(`unknown option: ${arg}`);
    // Both `--framing=ndjson` and `--framing ndjson` are accepted.
    const value = inlineValue ?? argv[++i];
    if (value === undefined || value === '') return usageError(`${flag} needs a value`);
    if (flag === '--framing') {
      if (!isFramingName(value)) return usageError(`unknown framing: ${value}`);
      framing = value;
    } else if (flag === '--era') {
      if (!(ECHO_ERAS as readonly string[]).includes(value)) return usageError(`unknown era: ${value}`);
      era = value as EchoEra;
    } else {
      if (!isFaultName(value)) return usageError(`unknown fault: ${value}`);
      if (isHttpOnlyFault(value)) return usageError(`--fault=${value} only applies to the Streamable HTTP server (mcp-http): stdio has no event streams`);
      faults.add(value);
    }
  }
  for (const fault of faults) {
    const only = FRAMING_ONLY_FAULTS[fault];
    if (only && only !== framing) return usageError(`--fault=${fault} only applies to --framing=${only}`);
  }
  // `era` only when asked for, so every existing caller's options stay exactly as they were.
  return { kind: 'run', options: era === 'dual' ? { framing, faults: [...faults] } : { framing, faults: [...faults], era } };
}

export function usageText(program = 'echo-server.mjs'): string {
  const width = Math.max(...STDIO_FAULT_NAMES.map((name) => name.length));
  const faultLines = STDIO_FAULT_NAMES.map((name) => `  ${name.padEnd(width)}  ${FAULT_DESCRIPTIONS[name]}`);
  return [
    `usage: node ${program} [--framing=${FRAMING_NAMES.join('|')}] [--era=${ECHO_ERAS.join('|')}] [--fault=NAME]...`,
    '',
    'An MCP echo server on stdin/stdout. Frames go to stdout, logs to stderr.',
    '',
    'framings:',
    '  ndjson          one JSON object per line (the MCP spec\'s stdio transport, what the official SDKs speak; the default)',
    `  content-length  Content-Length: N\\r\\n\\r\\n<json> (the chapter's framing)`,
    '',
    'eras:',
    '  dual            initialize opens the handshake era; a _meta claim gets 2026-07-28 (the default)',
    '  legacy          the handshake era only, as every pre-2026-07-28 server',
    '  modern          2026-07-28 only: initialize is refused with the supported versions',
    '',
    'faults (repeat --fault to combine them):',
    ...faultLines,
    '',
    'options:',
    '  --help          show this text',
    '',
  ].join('\n');
}

function usageError(message: string): EchoServerArgs {
  return { kind: 'usage-error', message };
}

function splitOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function isFramingName(value: string): value is FramingName {
  return (FRAMING_NAMES as readonly string[]).includes(value);
}
