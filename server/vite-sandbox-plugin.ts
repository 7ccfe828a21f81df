// Puts the learner-code sandbox frame (server/sandbox-document.ts) into the build as
// assets/sandbox/frame-<hash>.html, serves it in `vite dev` and `vite preview` with its own policy,
// and tells the page its URL through the __SANDBOX_FRAME_URL__ constant.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { SANDBOX_FRAME_FILE, SANDBOX_FRAME_HEADERS, SANDBOX_FRAME_HTML } from './sandbox-document.ts';
import { EVERY_RESPONSE_HEADERS } from './security-headers.ts';

export function sandboxFramePlugin(): Plugin {
  let base = '/';
  const serveFrame = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = (req.url ?? '/').split(/[?#]/, 1)[0];
    if (path !== `${base}${SANDBOX_FRAME_FILE}`) return next();
    res.writeHead(200, { ...EVERY_RESPONSE_HEADERS, ...SANDBOX_FRAME_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(SANDBOX_FRAME_HTML);
  };
  return {
    name: 'mcp-playground-sandbox-frame',
    config: (config) => ({ define: { __SANDBOX_FRAME_URL__: JSON.stringify(`${config.base ?? '/'}${SANDBOX_FRAME_FILE}`) } }),
    configResolved(resolved) {
      base = resolved.base;
    },
    configureServer(server) {
      server.middlewares.use(serveFrame);
    },
    configurePreviewServer(server) {
      server.middlewares.use(serveFrame);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SANDBOX_FRAME_FILE, source: SANDBOX_FRAME_HTML });
    },
  };
}
