// Vite for the page: React, the local bridge (dev and preview), and the headers that make the page
// cross-origin isolated, which the WebContainer needs (SharedArrayBuffer). No CDN, no external
// fonts: the page must work offline from `npm start`.

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bridgePlugin } from './server/vite-bridge-plugin.ts';

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export default defineConfig(({ command, mode }) => {
  // Vite keeps an inherited NODE_ENV, so a build started from a test (Vitest sets NODE_ENV=test, and
  // server/start.ts builds dist/ when stale) would bundle React's development build and JSX runtime.
  // Vite reads NODE_ENV after loading this file, which is where its docs say to set it.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';

  return {
    plugins: [react(), bridgePlugin()],
    server: { headers: ISOLATION_HEADERS },
    preview: { headers: ISOLATION_HEADERS },
    worker: { format: 'es' },
    build: {
      target: 'es2022',
      // @webcontainer/api stays out of the first chunk because its host imports it dynamically
      // (src/runtime/webcontainer-host.ts): nobody downloads it unless the WebContainer is tried.
      // Monaco too (src/ui/components/CodeEditor.tsx imports src/ui/editor/ dynamically): its
      // chunks and its 7 MB TypeScript worker load when the editor mounts, after the first paint.
    },
  };
});
