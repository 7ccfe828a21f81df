// For esbuild builds of browser code outside Vite (a test page, a bench page): Vite's
// `?worker&url` imports (the URL of a sandboxed worker's bundle, src/sandbox/sandboxed-worker.ts)
// mean nothing to esbuild. Those pages start their own workers, so the URL is never used: a module
// exporting the import's own path stands in for it.

import type { Plugin } from 'esbuild';

export const viteWorkerUrlStandIn: Plugin = {
  name: 'vite-worker-url-stand-in',
  setup(builder) {
    builder.onResolve({ filter: /\?worker&url$/ }, (args) => ({ path: args.path, namespace: 'vite-worker-url' }));
    builder.onLoad({ filter: /.*/, namespace: 'vite-worker-url' }, (args) => ({ contents: `export default ${JSON.stringify(args.path)};`, loader: 'js' }));
  },
};
