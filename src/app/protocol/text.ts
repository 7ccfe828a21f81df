// The protocol view's translations, under `protocolView` in the page's resources (see src/ui/i18n/namespace-text.ts).

import { namespaceText, type Leaves, type NamespaceText } from '../i18n/namespace-text.ts';
import { protocolViewEn, protocolViewZhCN } from './i18n.ts';

export type ProtocolTextKey = Leaves<typeof protocolViewEn>;
export type ProtocolText = NamespaceText<typeof protocolViewEn>;

const protocolTextKit = namespaceText('protocolView', protocolViewEn, protocolViewZhCN);

export const registerProtocolText = protocolTextKit.register;
export const useProtocolText = protocolTextKit.useText;
