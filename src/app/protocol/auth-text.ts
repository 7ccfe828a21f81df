// The authorization scene's text: the `auth` namespace (src/locales/<language>/auth.json).

import type { NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type AuthText = NamespaceText<Resources['auth']>;
