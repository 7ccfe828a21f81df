// Build time: a SHA-256 digest of every file the service worker precaches, written into its
// manifest (`self.__WB_MANIFEST`) beside workbox's own url and revision. The service worker checks
// each cached body against it before serving (src/app/offline/precache-integrity.ts), so a `put`
// into CacheStorage from anything else on the origin cannot change what the page loads: the
// manifest lives inside sw.js, which the browser fetches from the network, not from CacheStorage.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import type { ManifestTransform } from 'workbox-build';

export interface PrecacheDigests {
  /** Learns the build's output folder (the folder workbox globs). */
  plugin: Plugin;
  /** For `injectManifest.manifestTransforms`: adds `sha256` (base64) to each entry. */
  transform: ManifestTransform;
}

export function precacheDigests(): PrecacheDigests {
  let outDir: string | null = null;
  return {
    plugin: {
      name: 'mcp-playground-precache-digests',
      apply: 'build',
      configResolved(config) {
        outDir = resolve(config.root, config.build.outDir);
      },
    },
    transform: async (entries) => {
      if (outDir === null) throw new Error('precache digests: the build folder is unknown (is the plugin in the Vite config?)');
      const folder = outDir;
      const manifest = await Promise.all(
        entries.map(async (entry) => ({ ...entry, sha256: createHash('sha256').update(await readFile(resolve(folder, entry.url))).digest('base64') })),
      );
      return { manifest };
    },
  };
}
