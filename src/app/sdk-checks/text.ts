// The SDK checks' text: the `sdk-checks` namespace (src/locales/<language>/sdk-checks.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type SdkTextKey = Leaves<Resources['sdk-checks']>;
export type SdkText = NamespaceText<Resources['sdk-checks']>;
