// The presenter and follow views' `t`: the `presenter` namespace, keys typed in
// src/app/presenter/text.ts.

import type { PresenterText } from '../../app/presenter/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const usePresenterText = (): PresenterText => useNamespaceText('presenter');
