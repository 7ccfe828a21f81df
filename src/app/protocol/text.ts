// The protocol view's text: the `protocol` namespace (src/locales/<language>/protocol.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type ProtocolTextKey = Leaves<Resources['protocol']>;
export type ProtocolText = NamespaceText<Resources['protocol']>;
