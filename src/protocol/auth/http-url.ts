// The one URL rule of authorization's documents: every URL a client fetches or redirects to (an
// endpoint, a metadata document, an issuer) is absolute and http(s). `fail` makes the caller's
// own error from the sentence, so each module keeps its error class.

export function parseHttpUrl(value: unknown, what: string, fail: (message: string) => Error): URL {
  if (typeof value !== 'string' && !(value instanceof URL)) throw fail(`${what} is missing or not a string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(`${what} is not an absolute URL: ${JSON.stringify(String(value))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(`${what} must be http or https, not ${url.protocol}`);
  return url;
}
