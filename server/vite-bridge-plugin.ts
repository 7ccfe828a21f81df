// The local bridge inside Vite: `vite` (dev) and `vite preview` get the same /bridge endpoint and
// the same <meta> tags as `npm start`, so the page finds a real Node server whichever way it runs.
//
// - buildStart / configureServer: bundle tap.mjs and the servers into public/generated, which
//   Vite serves in dev and copies into dist/generated on build.
// - dev: the meta tags come from transformIndexHtml; preview: from a middleware serving index.html.
// - WebSocket upgrades for /bridge are taken; every other upgrade (Vite's HMR) is left alone.
// - A bridge reachable from the LAN (server.host set beyond loopback) behaves like `npm start
//   --host`: the token goes only to pages opened with ?token=, and the join links are printed.
// - Learner code never runs on this bridge ("Check my server" runs in the page's worker): the
//   sandboxed Node runner is opt-in, with `npm start -- --learner-code-in-node`.

import { readFile } from 'node:fs/promises';
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { extname, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger, Plugin, ResolvedConfig, ResolvedServerUrls } from 'vite';
import { buildNodePrograms } from '../scripts/build-node-programs.ts';
import { createBridgeToken } from './bridge-auth.ts';
import {
  allInterfaceOrigins,
  bridgeMetaFor,
  injectBridgeMeta,
  isLoopbackHost,
  lanAddresses,
  loopbackOrigins,
  type BridgeMode,
} from './bridge-page.ts';
import { createBridge, type Bridge } from './bridge.ts';
import { handleBridgeTokenRequest } from './bridge-token-endpoint.ts';
import { DEV_PAGE_HEADERS, EVERY_RESPONSE_HEADERS, PAGE_HEADERS, scriptHeadersFor } from './security-headers.ts';

export interface BridgePluginOptions {
  /** Where the Node programs are bundled, relative to the Vite root. Default public/generated. */
  programsOutDir?: string;
  maxTotal?: number;
}

export function bridgePlugin(options: BridgePluginOptions = {}): Plugin {
  const outDirOption = options.programsOutDir ?? 'public/generated';
  // One token per plugin instance; Vite creates a new instance on every start and restart.
  const token = createBridgeToken();
  let config: ResolvedConfig;
  let built: Promise<unknown> | null = null;
  let devMode: BridgeMode | null = null;
  let bridge: Bridge | null = null;

  const programsOutDir = () => resolve(config.root, outDirOption);
  // buildStart and configureServer both ask in dev; one bundle per start is enough.
  const buildPrograms = () => (built ??= buildNodePrograms(programsOutDir()));

  const closeBridge = async () => {
    await bridge?.closeAll();
    bridge = null;
  };

  return {
    name: 'mcp-playground-bridge',

    configResolved(resolved) {
      config = resolved;
    },

    async buildStart() {
      await buildPrograms();
    },

    async configureServer(server) {
      await buildPrograms();
      // The dev page holds the bridge token too: no other site may frame it.
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        if (isPageRequest(req)) for (const [name, value] of Object.entries(DEV_PAGE_HEADERS)) res.setHeader(name, value);
        next();
      });
      const httpServer = server.httpServer;
      if (!httpServer) return; // middleware mode: whoever owns the HTTP server owns the bridge too
      devMode = modeFor(token, isSharedHost(config.server.host));
      const attach = { mode: devMode, programsDir: programsOutDir(), resolvedUrls: () => server.resolvedUrls, logger: config.logger, maxTotal: options.maxTotal };
      bridge = attachBridge(httpServer, attach);
      const tokenOptions = { mode: devMode, ownOrigins: () => ownOrigins(httpServer, attach) };
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        if (!handleBridgeTokenRequest(req, res, tokenOptions)) next();
      });
    },

    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        // In a build there is no server and no token: start.ts injects one per request.
        if (!context.server || !devMode) return html;
        return injectBridgeMeta(html, bridgeMetaFor(context.originalUrl ?? context.path, devMode));
      },
    },

    closeServer: closeBridge,

    configurePreviewServer(server) {
      const mode: BridgeMode = modeFor(token, isSharedHost(config.preview.host));
      const outDir = resolve(config.root, config.build.outDir);
      const attach = { mode, programsDir: resolve(outDir, 'generated'), resolvedUrls: () => server.resolvedUrls, logger: config.logger, maxTotal: options.maxTotal };
      bridge = attachBridge(server.httpServer, attach);
      const tokenOptions = { mode, ownOrigins: () => ownOrigins(server.httpServer, attach) };
      // Registered now, so it runs before Vite's static files and its own index.html fallback.
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        if (handleBridgeTokenRequest(req, res, tokenOptions)) return;
        // Every script of the build carries its CSP, as from `npm start` (server/static-files.ts).
        for (const [name, value] of Object.entries(scriptHeadersFor((req.url ?? '/').split(/[?#]/, 1)[0] ?? '/'))) res.setHeader(name, value);
        if (!isPageRequest(req)) return next();
        readFile(resolve(outDir, 'index.html'), 'utf8').then(
          (html) => sendHtml(req, res, injectBridgeMeta(html, bridgeMetaFor(req.url ?? '/', mode))),
          () => next(),
        );
      });
    },

    closePreviewServer: closeBridge,
  };
}

interface AttachOptions {
  mode: BridgeMode;
  programsDir: string;
  resolvedUrls: () => ResolvedServerUrls | null;
  logger: Logger;
  maxTotal: number | undefined;
}

// Vite's server is plain HTTP, or HTTP/2 over TLS when `server.https` is set; both emit 'upgrade'
// and 'listening' the same way.
function attachBridge(httpServer: HttpServer | Http2SecureServer, options: AttachOptions): Bridge {
  const port = () => (httpServer.address() as AddressInfo | null)?.port ?? 0;
  const bridge = createBridge({
    token: options.mode.token,
    programsDir: options.programsDir,
    maxTotal: options.maxTotal,
    learnerCode: { run: 'never', why: options.mode.shared ? 'shared-bridge' : 'not-enabled' },
    // Computed per connection: the port is only known once Vite listens (it may move if taken).
    allowedOrigins: () => ownOrigins(httpServer, options),
    log: (line) => options.logger.warn(`[bridge] ${line}`, { timestamp: true }),
  });
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    bridge.handleUpgrade(req, socket, head);
  });
  if (options.mode.shared) {
    httpServer.once('listening', () => {
      const links = lanAddresses().map((address) => `http://${address}:${port()}/?token=${options.mode.token}`);
      options.logger.info(`  Shared bridge: anyone with a join link can run the echo servers on this machine.`);
      for (const link of links) options.logger.info(`  join: ${link}`);
    });
  }
  return bridge;
}

/** The page's own origins: Vite's URLs and this machine's names at the port it listens on. */
function ownOrigins(httpServer: HttpServer | Http2SecureServer, options: AttachOptions): string[] {
  const port = (httpServer.address() as AddressInfo | null)?.port ?? 0;
  const urls = options.resolvedUrls();
  const fromVite = [...(urls?.local ?? []), ...(urls?.network ?? [])].map((url) => new URL(url).origin);
  const own = options.mode.shared ? allInterfaceOrigins(port) : loopbackOrigins(port);
  return [...new Set([...fromVite, ...own])];
}

function modeFor(token: string, shared: boolean): BridgeMode {
  return { token, shared, learnerCode: shared ? 'shared-bridge' : 'not-enabled' };
}

/** Vite's `server.host` / `preview.host`: unset means localhost; true or an address beyond loopback is shared. */
function isSharedHost(host: string | boolean | undefined): boolean {
  if (host === undefined || host === false) return false;
  if (host === true) return true;
  return !isLoopbackHost(host);
}

// index.html and the app's routes; assets (with an extension) go to Vite's static handler.
function isPageRequest(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split(/[?#]/, 1)[0] ?? '/';
  if (path === '/' || path === '/index.html') return true;
  return extname(path) === '' && (req.headers.accept ?? '').includes('text/html');
}

function sendHtml(req: IncomingMessage, res: ServerResponse, html: string): void {
  const body = Buffer.from(html, 'utf8');
  res.writeHead(200, {
    ...EVERY_RESPONSE_HEADERS,
    ...PAGE_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
