// The era switch's `t`: the `era` namespace, keys typed in src/app/protocol/era-text.ts.

import type { EraText } from '../../app/protocol/era-text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useEraText = (): EraText => useNamespaceText('era');
