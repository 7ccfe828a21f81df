// The learner-code sandbox frame as a file: a tiny HTML document whose only script is
// SANDBOX_FRAME_SCRIPT, and the Content-Security-Policy it is served with. Shared by the Vite plugin
// (which writes it into the build, server/vite-sandbox-plugin.ts) and by `npm start`'s static
// server (which sends the policy as a header), so both name the same script hash.

import { createHash } from 'node:crypto';
import { SANDBOX_FRAME_SCRIPT } from '../src/sandbox/sandbox-frame.ts';

/**
 * Where the frame sits in the build: a folder of its own (not assets/, whose files carry the worker
 * policy: the deploy files' path rules must not overlap), its name hashed and cached as immutable.
 */
export const SANDBOX_FRAME_DIR = 'sandbox';

const scriptHash = createHash('sha256').update(SANDBOX_FRAME_SCRIPT, 'utf8').digest('base64');

/**
 * The frame's policy. Learner code runs in workers the frame starts from blob: URLs, and such a
 * worker inherits this policy, so it is the learner code's policy too:
 *   sandbox allow-scripts  THE boundary: the document (and the workers it starts) gets an opaque
 *                          origin however it is opened; the precache keeps this header with it
 *   script-src             the bootstrap by hash; eval for learner code (compiled with new Function);
 *                          no URL at all, so no importScripts / import() of anything
 *   worker-src blob:       only the workers the bootstrap makes; never one of our URLs
 *   connect-src 'none'     no fetch, XHR, WebSocket, EventSource: not the page, not the bridge
 *   frame-ancestors 'self' only our own page may embed it
 */
export const SANDBOX_FRAME_CONTENT_SECURITY_POLICY = [
  'sandbox allow-scripts',
  "default-src 'none'",
  `script-src 'sha256-${scriptHash}' 'unsafe-eval'`,
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

export const SANDBOX_FRAME_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SANDBOX_FRAME_CONTENT_SECURITY_POLICY.replace(/sandbox allow-scripts; |; frame-ancestors 'self'/g, '')}">
<title>learner code sandbox</title>
</head>
<body>
<script>${SANDBOX_FRAME_SCRIPT}</script>
</body>
</html>
`;

/** Named by its content, like every other asset: a new bootstrap is a new URL. */
export const SANDBOX_FRAME_FILE = `${SANDBOX_FRAME_DIR}/frame-${createHash('sha256').update(SANDBOX_FRAME_HTML, 'utf8').digest('hex').slice(0, 10)}.html`;

export function isSandboxFramePath(path: string): boolean {
  return /(^|[\\/])sandbox[\\/]frame-[0-9a-f]+\.html$/.test(path);
}

/** The headers of the frame document, besides the ones every response gets. */
export const SANDBOX_FRAME_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': SANDBOX_FRAME_CONTENT_SECURITY_POLICY,
};
