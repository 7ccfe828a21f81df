// Where the UI text comes from in the page: each src/locales/<language>/<namespace>.json is its own
// chunk, fetched through dynamic import() the first time i18next asks for that language and
// namespace (i18next-resources-to-backend, in index.ts). The service worker precaches the chunks
// with the rest of the build, so a language switch works offline too.

const files = import.meta.glob<object>('/src/locales/*/*.json', { import: 'default' });

/** The resources of one namespace in one language; rejects for a pair that has no file. */
export function loadLocaleFile(language: string, namespace: string): Promise<object> {
  const load = files[`/src/locales/${language}/${namespace}.json`];
  return load ? load() : Promise.reject(new Error(`no UI text for ${language}/${namespace}`));
}
