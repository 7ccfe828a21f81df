// The trace view's text: the `trace` namespace (src/locales/<language>/trace.json).

import type { NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type TraceText = NamespaceText<Resources['trace']>;
