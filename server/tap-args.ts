// The tap's command line. Without options it is the tap it always was (`-- <program> [args...]`,
// the line protocol on its stdio). Options before `--` record a trace file (docs/trace-format):
//
//   --record=FILE -- <server cmd...>                      the tap as always, and every event to FILE
//   --record=FILE --between "<client cmd>" -- <server...> spawn both, sit between them, record
//   --record=FILE --listen[=PORT] --target=URL            loopback TCP relay in front of an HTTP server
//   --framing=content-length|ndjson                       name the framing instead of guessing it

import { splitCommandWords } from './command-words.ts';

export type TapArgs =
  | { mode: 'tap'; argv: string[] }
  | { mode: 'stdio'; record: string; framing: StdioFraming | null; argv: string[] }
  | { mode: 'between'; record: string; framing: StdioFraming | null; client: string[]; argv: string[] }
  | { mode: 'http'; record: string; port: number; target: URL };

export type StdioFraming = 'content-length' | 'ndjson';

export const TAP_USAGE = `usage:
  npm run --silent tap -- -- <program> [args...]
      the tap: runs the program, reports its bytes as JSON lines on stdout, takes commands on stdin
  npm run --silent tap -- --record=FILE [--framing=content-length|ndjson] -- <server> [args...]
      the same, and writes every event to the trace file FILE
  npm run --silent tap -- --record=FILE [--framing=...] --between "<client command>" -- <server> [args...]
      runs a client and a server, connects the client's stdout to the server's stdin and back,
      and records both directions
  npm run --silent tap -- --record=FILE --listen[=PORT] --target=http://127.0.0.1:PORT/mcp
      a relay on 127.0.0.1 in front of a Streamable HTTP server: records the bytes of every TCP
      connection; prints the URL to use instead of the target
The trace format: docs/trace-format/README.md.
`;

/** Parse the tap's arguments (after the script name); an error names what is wrong. */
export function parseTapArgs(args: readonly string[]): TapArgs | { error: string } | 'help' {
  const separator = args.indexOf('--');
  const options = separator === -1 ? args : args.slice(0, separator);
  const command = separator === -1 ? null : args.slice(separator + 1);

  let record: string | undefined;
  let framing: StdioFraming | undefined;
  let between: string | undefined;
  let listen: number | undefined;
  let target: string | undefined;
  const seen = new Set<string>();

  for (let i = 0; i < options.length; i++) {
    const arg = options[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    const match = /^(--[a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) return { error: `unexpected argument "${arg}" (the program goes after "--")` };
    const [, flag, inline] = match as unknown as [string, string, string | undefined];
    if (seen.has(flag)) return { error: `${flag} given twice` };
    seen.add(flag);
    switch (flag) {
      case '--record':
        if (!inline) return { error: '--record needs a file: --record=FILE' };
        record = inline;
        break;
      case '--framing':
        if (inline !== 'content-length' && inline !== 'ndjson') return { error: '--framing must be content-length or ndjson' };
        framing = inline;
        break;
      case '--between': {
        // Both spellings: --between="cmd" and --between "cmd".
        const value = inline ?? options[++i];
        if (value === undefined || value.trim() === '') return { error: '--between needs the client command: --between "<client command>"' };
        between = value;
        break;
      }
      case '--listen':
        if (inline === undefined) listen = 0;
        else if (/^\d{1,5}$/.test(inline) && Number(inline) <= 65535) listen = Number(inline);
        else return { error: `--listen=${inline}: the port must be a number from 0 to 65535` };
        break;
      case '--target':
        if (!inline) return { error: '--target needs a URL: --target=http://127.0.0.1:PORT/mcp' };
        target = inline;
        break;
      default:
        return { error: `unknown option ${flag}` };
    }
  }

  if (record === undefined) {
    if (seen.size > 0) return { error: `${[...seen][0]} records a trace: add --record=FILE` };
    if (separator !== 0 || !command || command.length === 0) return { error: 'nothing to run: give the program after "--"' };
    return { mode: 'tap', argv: [...command] };
  }

  if (listen !== undefined || target !== undefined) {
    if (listen === undefined) return { error: '--target goes with --listen[=PORT]' };
    if (target === undefined) return { error: '--listen needs --target=URL, the HTTP MCP server to relay to' };
    if (between !== undefined) return { error: '--listen and --between are different modes: choose one' };
    if (framing !== undefined) return { error: '--framing is for stdio; --listen records HTTP' };
    if (command !== null) return { error: '--listen runs no program: nothing goes after "--" (start the HTTP server yourself)' };
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { error: `--target=${target} is not a URL` };
    }
    if (url.protocol === 'https:') return { error: '--target must be http://: the relay records raw TCP bytes, and TLS would leave only ciphertext' };
    if (url.protocol !== 'http:') return { error: `--target must be an http:// URL, not ${url.protocol}` };
    return { mode: 'http', record, port: listen, target: url };
  }

  if (!command || command.length === 0) return { error: 'no server to run: give it after "--" (--record=FILE -- <server> [args...])' };
  if (between === undefined) return { mode: 'stdio', record, framing: framing ?? null, argv: [...command] };
  const client = splitCommandWords(between);
  if ('error' in client) return { error: `--between: ${client.error}` };
  return { mode: 'between', record, framing: framing ?? null, client, argv: [...command] };
}
