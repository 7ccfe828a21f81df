// The SDK checks' translations, under `sdkChecks` in the page's resources (see src/ui/i18n/namespace-text.ts).

import { namespaceText, type Leaves, type NamespaceText } from '../i18n/namespace-text.ts';
import { sdkChecksEn, sdkChecksZhCN } from './i18n.ts';

export type SdkTextKey = Leaves<typeof sdkChecksEn>;
export type SdkText = NamespaceText<typeof sdkChecksEn>;

const sdkTextKit = namespaceText('sdkChecks', sdkChecksEn, sdkChecksZhCN);

export const registerSdkText = sdkTextKit.register;
export const useSdkText = sdkTextKit.useText;
