// The authorization scene's `t`: the `auth` namespace, keys typed in src/app/protocol/auth-text.ts.

import type { AuthText } from '../../app/protocol/auth-text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useAuthText = (): AuthText => useNamespaceText('auth');
