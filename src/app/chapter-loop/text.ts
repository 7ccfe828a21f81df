// The Chapter loop's text: the `chapter-loop` namespace (src/locales/<language>/chapter-loop.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type AgentTextKey = Leaves<Resources['chapter-loop']>;
export type AgentText = NamespaceText<Resources['chapter-loop']>;
