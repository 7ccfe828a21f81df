// The protocol view' `t`: the `protocol` namespace, keys typed in src/app/protocol/text.ts.

import type { ProtocolText } from '../../app/protocol/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useProtocolText = (): ProtocolText => useNamespaceText('protocol');
