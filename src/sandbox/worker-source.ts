// The text of a worker bundle, fetched by the page from its own origin (through the service worker
// and the HTTP cache, so offline too) and posted into the sandbox frame, which cannot fetch
// anything itself. Each bundle is fetched once per page.

const sources = new Map<string, Promise<string>>();

export function workerSource(url: string): Promise<string> {
  let source = sources.get(url);
  if (source === undefined) {
    source = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`the worker script ${url} could not be loaded (HTTP ${response.status})`);
      return response.text();
    });
    // A failed fetch (offline before the first visit finished) is tried again next time.
    source.catch(() => sources.delete(url));
    sources.set(url, source);
  }
  return source;
}
