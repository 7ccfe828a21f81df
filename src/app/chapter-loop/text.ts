// The Chapter loop's translations, under `agentView` in the page's resources (see src/ui/i18n/namespace-text.ts).

import { namespaceText, type Leaves, type NamespaceText } from '../i18n/namespace-text.ts';
import { agentViewEn, agentViewZhCN } from './i18n.ts';

export type AgentTextKey = Leaves<typeof agentViewEn>;
export type AgentText = NamespaceText<typeof agentViewEn>;

const agentTextKit = namespaceText('agentView', agentViewEn, agentViewZhCN);

export const registerAgentText = agentTextKit.register;
export const useAgentText = agentTextKit.useText;
