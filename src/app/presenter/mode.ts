// Which root the page renders, from its query: the app, the presenter's view (?presenter=1) or
// the follow view the room sees (?follow=1, with or without presenter=1).

export type PageMode = 'app' | 'presenter' | 'follow';

const TRUE_VALUES = new Set(['1', 'true', 'yes', '']);

function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && TRUE_VALUES.has(value.trim().toLowerCase());
}

export function pageMode(search: string): PageMode {
  const params = new URLSearchParams(search);
  if (flag(params, 'follow')) return 'follow';
  if (flag(params, 'presenter')) return 'presenter';
  return 'app';
}

/**
 * The address of another mode of this page, keeping the other query parameters (the forced host,
 * a bridge token) and dropping the hash, which belongs to the app's views.
 */
export function modeHref(href: string, mode: PageMode): string {
  const url = new URL(href);
  url.searchParams.delete('presenter');
  url.searchParams.delete('follow');
  if (mode === 'presenter') url.searchParams.set('presenter', '1');
  if (mode === 'follow') {
    url.searchParams.set('presenter', '1');
    url.searchParams.set('follow', '1');
  }
  url.hash = '';
  return url.toString();
}
