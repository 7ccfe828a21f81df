// The trace view's `t`: the `trace` namespace, keys typed in src/app/trace/text.ts.

import type { TraceText } from '../../app/trace/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useTraceText = (): TraceText => useNamespaceText('trace');
