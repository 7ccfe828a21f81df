// The shape of one preflight check's answer: a status, a sentence saying what was found, and the
// things to do about it. Sentences are i18n keys with values, so the panel and the copied summary
// speak the learner's language; reasons that come from the runtime (a host's own explanation) are
// passed as values with their code (`why`), and worded in the page's language as the live panel does.

import type { Resources } from '../i18n/resources.ts';
import type { HostReasonCode } from '../../runtime/host.ts';

type DetailKey = keyof Resources['preflight']['detail'];
type FixKey = keyof Resources['preflight']['fix'];

export const CHECK_IDS = ['isolation', 'webcontainer', 'bridge', 'storage', 'offline'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** pass: works. warn: works with a caveat. fail: does not work here. skip: not needed here. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export type TextValues = Record<string, string | number>;

export interface Detail {
  key: DetailKey;
  values?: TextValues;
  /** A host's reason code, when `values.reason` is a host's English reason: the page words it (summary.ts). */
  why?: HostReasonCode;
}

export interface Fix {
  key: FixKey;
  values?: TextValues;
}

export interface CheckResult {
  status: CheckStatus;
  detail: Detail;
  fixes: Fix[];
}

export type CheckRow =
  | { id: CheckId; state: 'pending' | 'running' }
  | { id: CheckId; state: 'done'; result: CheckResult };
