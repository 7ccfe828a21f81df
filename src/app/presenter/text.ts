// The presenter's translations, under `presenter` in the page's resources (see src/ui/i18n/namespace-text.ts).

import { namespaceText, type Leaves, type NamespaceText } from '../i18n/namespace-text.ts';
import { presenterEn, presenterZhCN } from './i18n.ts';

export type PresenterTextKey = Leaves<typeof presenterEn>;
export type PresenterText = NamespaceText<typeof presenterEn>;

const presenterTextKit = namespaceText('presenter', presenterEn, presenterZhCN);

export const registerPresenterText = presenterTextKit.register;
export const usePresenterText = presenterTextKit.useText;
