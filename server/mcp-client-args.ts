// The command line of `npm run --silent mcp-client`: which era, and which server — a Streamable
// HTTP URL, or a stdio server to spawn (everything after `--`). Pure, so it is tested without
// spawning anything.
//
//   mcp-client [--era=auto|legacy|modern] (URL | -- <server command> [args...])

export const CLIENT_ERAS = ['auto', 'legacy', 'modern'] as const;
export type ClientEra = (typeof CLIENT_ERAS)[number];

export type McpClientTarget = { kind: 'http'; url: string } | { kind: 'stdio'; command: string; args: string[] };

export type McpClientArgs = { kind: 'run'; era: ClientEra; target: McpClientTarget } | { kind: 'help' } | { kind: 'usage-error'; message: string };

export const MCP_CLIENT_USAGE = [
  'usage: npm run --silent mcp-client -- [--era=auto|legacy|modern] (URL | -- <server command> [args...])',
  '',
  'The project\'s dual-era MCP client: connect, list the tools, call each one with example arguments.',
  '  URL                       a Streamable HTTP endpoint (http://127.0.0.1:PORT/mcp)',
  '  -- <command> [args...]    a stdio server to spawn (newline-delimited JSON, the spec\'s stdio transport)',
  '  --era=auto                probe for 2026-07-28, fall back to the handshake era (the default)',
  '  --era=legacy              the handshake era only (initialize)',
  '  --era=modern              2026-07-28 only, no fallback',
  '',
].join('\n');

export function parseMcpClientArgs(argv: readonly string[]): McpClientArgs {
  let era: ClientEra = 'auto';
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      const [command, ...args] = argv.slice(i + 1);
      if (command === undefined) return usageError('-- needs a server command after it');
      if (url !== undefined) return usageError('give a URL or a server command, not both');
      return { kind: 'run', era, target: { kind: 'stdio', command, args } };
    }
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg.startsWith('--era=')) {
      const value = arg.slice('--era='.length);
      if (!(CLIENT_ERAS as readonly string[]).includes(value)) return usageError(`unknown era: ${value} (auto, legacy or modern)`);
      era = value as ClientEra;
    } else if (/^https?:\/\//.test(arg)) {
      if (url !== undefined) return usageError('one URL only');
      url = arg;
    } else {
      return usageError(`unknown argument: ${arg}`);
    }
  }
  if (url === undefined) return usageError('no server: give a URL, or -- and a server command');
  return { kind: 'run', era, target: { kind: 'http', url } };
}

function usageError(message: string): McpClientArgs {
  return { kind: 'usage-error', message };
}
