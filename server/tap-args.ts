// The tap's command line. Without options it is the tap it always was (`-- <program> [args...]`,
// the line protocol on its stdio). Options before `--` record a trace file (docs/trace-format):
//
//   --record=FILE -- <server cmd...>                      the tap as always, and every event to FILE
//   --record=FILE --transparent -- <server cmd...>        the server's own stdio, no line protocol
//   --record=FILE --between "<client cmd>" -- <server...> spawn both, sit between them, record
//   --record=FILE --listen[=PORT] --target=URL            loopback TCP relay in front of an HTTP server
//   --framing=content-length|ndjson                       name the framing instead of guessing it
//   --relay-http -- <http server cmd...>                  the tap, plus a relay of TCP connections to
//                                                         the port the server prints (relay-tap.ts;
//                                                         the WebContainer host's mcp-http)

import { splitCommandWords } from './command-words.ts';

export type TapArgs =
  | { mode: 'tap'; argv: string[]; relay?: true }
  | { mode: 'stdio'; record: string; framing: StdioFraming | null; argv: string[]; transparent: boolean }
  | { mode: 'between'; record: string; framing: StdioFraming | null; client: string[]; argv: string[] }
  | { mode: 'http'; record: string; port: number; target: URL };

export type StdioFraming = 'content-length' | 'ndjson';

export const TAP_USAGE = `usage:
  npm run --silent tap -- -- <program> [args...]
      the tap: runs the program, reports its bytes as JSON lines on stdout, takes commands on stdin
  npm run --silent tap -- --relay-http -- <http server> [args...]
      the same, for an HTTP server that prints http://127.0.0.1:PORT/mcp: commands connect / write /
      close relay TCP connections to that port (how the page's hosts run mcp-http)
  npm run --silent tap -- --record=FILE [--framing=content-length|ndjson] -- <server> [args...]
      the same, and writes every event to the trace file FILE
  npm run --silent tap -- --record=FILE --transparent [--framing=...] -- <server> [args...]
      an invisible stdio server: bytes pass through unchanged (no line protocol), and are recorded;
      put this command where an MCP client would spawn the server
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
  let transparent = false;
  let relayHttp = false;
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
      case '--transparent':
        if (inline !== undefined) return { error: '--transparent takes no value' };
        transparent = true;
        break;
      case '--relay-http':
        if (inline !== undefined) return { error: '--relay-http takes no value' };
        relayHttp = true;
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
    const others = [...seen].filter((flag) => flag !== '--relay-http');
    if (others.length > 0) return { error: `${others[0]} records a trace: add --record=FILE` };
    if (separator !== (relayHttp ? 1 : 0) || !command || command.length === 0) return { error: 'nothing to run: give the program after "--"' };
    return relayHttp ? { mode: 'tap', argv: [...command], relay: true } : { mode: 'tap', argv: [...command] };
  }
  if (relayHttp) return { error: '--relay-http is the page host\'s tap; it does not record (use --listen for that)' };

  if (listen !== undefined || target !== undefined) {
    if (listen === undefined) return { error: '--target goes with --listen[=PORT]' };
    if (target === undefined) return { error: '--listen needs --target=URL, the HTTP MCP server to relay to' };
    if (between !== undefined) return { error: '--listen and --between are different modes: choose one' };
    if (transparent) return { error: '--transparent is for a stdio server, not --listen' };
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
  if (between === undefined) return { mode: 'stdio', record, framing: framing ?? null, argv: [...command], transparent };
  if (transparent) return { error: '--transparent and --between are different modes: choose one' };
  const client = splitCommandWords(between);
  if ('error' in client) return { error: `--between: ${client.error}` };
  return { mode: 'between', record, framing: framing ?? null, client, argv: [...command] };
}
