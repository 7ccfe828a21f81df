// For component tests in Node (no DOM): render to static HTML inside an i18next provider that
// holds the page's text (English).

import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createTestI18n } from '../../app/i18n/testing.ts';

const i18n = createTestI18n('en');

export function renderHtml(element: ReactElement): string {
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}

/** Every match of `pattern` in `html` (global regex), as its first group or whole match. */
export function all(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => match[1] ?? match[0]);
}
