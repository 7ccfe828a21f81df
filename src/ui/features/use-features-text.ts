// The Server features' `t`: the `features` namespace, keys typed in src/app/features/text.ts.

import type { FeaturesText } from '../../app/features/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useFeaturesText = (): FeaturesText => useNamespaceText('features');
