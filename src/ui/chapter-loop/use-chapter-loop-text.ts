// The Chapter loop' `t`: the `chapter-loop` namespace, keys typed in src/app/chapter-loop/text.ts.

import type { AgentText } from '../../app/chapter-loop/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useAgentText = (): AgentText => useNamespaceText('chapter-loop');
