// Vite for the page: React, the local bridge (dev and preview), the headers that make the page
// cross-origin isolated, which the WebContainer needs (SharedArrayBuffer), and the service worker
// that keeps the whole app usable offline after one visit. No CDN, no external fonts: the page
// must work offline from `npm start`.

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bridgePlugin } from './server/vite-bridge-plugin.ts';
import { precacheDigests } from './server/precache-digests.ts';
import { sandboxFramePlugin } from './server/vite-sandbox-plugin.ts';
import { EVERY_RESPONSE_HEADERS } from './server/security-headers.ts';

// Monaco's TypeScript worker is about 7 MB and the WebContainer's SDK echo server 1.4 MB: workbox's
// default 2 MiB limit would silently leave them out, and the editor would not open offline.
const MAX_PRECACHED_FILE_BYTES = 16 * 1024 * 1024;

export default defineConfig(({ command, mode }) => {
  // Vite keeps an inherited NODE_ENV, so a build started from a test (Vitest sets NODE_ENV=test, and
  // server/start.ts builds dist/ when stale) would bundle React's development build and JSX runtime.
  // Vite reads NODE_ENV after loading this file, which is where its docs say to set it.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';

  // A digest per precached file, checked by the service worker before it serves a cached copy.
  const digests = precacheDigests();
  return {
    plugins: [
      react(),
      bridgePlugin(),
      // The learner-code sandbox frame (assets/sandbox/frame-*.html, an opaque origin).
      sandboxFramePlugin(),
      digests.plugin,
      // Our own service worker (src/app/offline/sw.ts) rather than a generated one: the page must be
      // fetched network-first (npm start puts a fresh bridge token into it on every start), which
      // generateSW's cache-first navigation fallback would break. Registration is ours too
      // (src/app/offline/register-service-worker.ts), so nothing is injected into index.html. In the
      // dev server the plugin does nothing: no worker, no stale caches while editing.
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src/app/offline',
        filename: 'sw.ts',
        injectRegister: false,
        manifest: false,
        injectManifest: {
          maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE_BYTES,
          // Everything the build ships: page, chunks, Monaco and its workers, CSS and the codicon
          // font, the spec/learner/echo workers, public/generated/*.mjs and the favicon.
          globPatterns: ['**/*.{html,js,mjs,css,svg,ttf,woff,woff2,wasm,json,png,ico}'],
          manifestTransforms: [digests.transform],
          // The plugin builds the worker with rollup's `inlineDynamicImports`, which Vite 8's
          // bundler reports as deprecated on every build; this says the same in its words.
          buildPlugins: { vite: [oneFileServiceWorker()] },
        },
      }),
    ],
    // Isolation, no Referer, the Permissions-Policy: the same on every response as `npm start`.
    server: { headers: EVERY_RESPONSE_HEADERS },
    preview: { headers: EVERY_RESPONSE_HEADERS },
    worker: { format: 'es' },
    build: {
      target: 'es2022',
      // Monaco (2.7 MB) and the learner's type models (1.2 MB) are lazy chunks, loaded when the
      // editor mounts: the size that matters is the first paint's, and its budget is a test
      // (tests/performance/first-paint-budget.test.ts, 180 KB gz), so the generic 500 kB notice
      // would only be noise on every `npm start`.
      chunkSizeWarningLimit: 3_000,
      // Rolldown's "plugins took N% of the build" report: informative in a profile, noise here.
      rolldownOptions: { checks: { pluginTimings: false } },
      // @webcontainer/api stays out of the first chunk because its host imports it dynamically
      // (src/runtime/webcontainer-host.ts): nobody downloads it unless the WebContainer is tried.
      // Monaco too (src/ui/exercise/CodeEditor.tsx imports src/ui/editor/ dynamically): its
      // chunks and its 7 MB TypeScript worker load when the editor mounts, after the first paint.
    },
  };
});

/** vite-plugin-pwa's service-worker build, told to make one file by `codeSplitting: false`. */
function oneFileServiceWorker(): Plugin {
  return {
    name: 'one-file-service-worker',
    config(config) {
      const output = config.build?.rollupOptions?.output;
      if (output && !Array.isArray(output) && 'inlineDynamicImports' in output) {
        delete output.inlineDynamicImports;
        (output as { codeSplitting?: boolean }).codeSplitting = false;
      }
    },
  };
}
