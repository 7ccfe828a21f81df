// Export, import and share links' `t`: the `progress-transfer` namespace, keys typed in
// src/app/progress-transfer/text.ts.

import { TRANSFER_NAMESPACE, type TransferText } from '../../app/progress-transfer/text.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';

export const useTransferText = (): TransferText => useNamespaceText(TRANSFER_NAMESPACE);
