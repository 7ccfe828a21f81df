// The SDK checks' `t`: the `sdk-checks` namespace, keys typed in src/app/sdk-checks/text.ts.

import type { SdkText } from '../../app/sdk-checks/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useSdkText = (): SdkText => useNamespaceText('sdk-checks');
