// For component tests in Node (no DOM): render to static HTML inside an i18next provider that
// knows the protocol view's English text.

import i18next from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { registerProtocolText } from '../../app/protocol/text.ts';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: { hosts: { worker: 'In-browser worker' } } } }, initAsync: false, interpolation: { escapeValue: false } });
registerProtocolText(i18n);

export function renderHtml(element: ReactElement): string {
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}

/** Every match of `pattern` in `html` (global regex), as its first group or whole match. */
export function all(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => match[1] ?? match[0]);
}
