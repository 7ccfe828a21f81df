// The progress-transfer text, under `progressTransfer` in the page's resources (see
// src/ui/i18n/namespace-text.ts).

import { namespaceText, type Leaves, type NamespaceText } from '../i18n/namespace-text.ts';
import { progressTransferEn, progressTransferZhCN } from './i18n.ts';

export type TransferKey = Leaves<typeof progressTransferEn>;
export type TransferText = NamespaceText<typeof progressTransferEn>;

export const TRANSFER_NAMESPACE_KEY = 'progressTransfer';

const transferTextKit = namespaceText(TRANSFER_NAMESPACE_KEY, progressTransferEn, progressTransferZhCN);

export const ensureTransferResources = transferTextKit.register;
export const useTransferText = transferTextKit.useText;
