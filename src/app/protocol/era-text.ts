// The era switch's text: the `era` namespace (src/locales/<language>/era.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type EraTextKey = Leaves<Resources['era']>;
export type EraText = NamespaceText<Resources['era']>;
