// The Server features text: the `features` namespace (src/locales/<language>/features.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type FeaturesTextKey = Leaves<Resources['features']>;
export type FeaturesText = NamespaceText<Resources['features']>;
