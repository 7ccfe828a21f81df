// The presenter's text: the `presenter` namespace (src/locales/<language>/presenter.json).

import { useNamespaceText, type Leaves, type NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type PresenterTextKey = Leaves<Resources['presenter']>;
export type PresenterText = NamespaceText<Resources['presenter']>;

export const usePresenterText = (): PresenterText => useNamespaceText('presenter');
