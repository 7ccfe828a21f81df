// The progress-transfer text: the `progress-transfer` namespace
// (src/locales/<language>/progress-transfer.json).

import type { Leaves, NamespaceText } from '../text/namespace-text.ts';
import type { Resources } from '../i18n/resources.ts';

export type TransferKey = Leaves<Resources['progress-transfer']>;
export type TransferText = NamespaceText<Resources['progress-transfer']>;

export const TRANSFER_NAMESPACE = 'progress-transfer';
