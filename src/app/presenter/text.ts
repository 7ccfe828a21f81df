// The presenter's text: the `presenter` namespace (src/locales/<language>/presenter.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type PresenterTextKey = Leaves<Resources['presenter']>;
export type PresenterText = NamespaceText<Resources['presenter']>;
