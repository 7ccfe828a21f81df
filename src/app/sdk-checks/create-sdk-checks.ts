// Makes the page's SdkChecksStore from the live session (its chosen host) and the exercise store
// (the learner's saved exercise 3 and 4 code), as protocol-services.ts does for the protocol view.

import { solutionEntry } from '../../exercise/catalogue.ts';
import { protocolIdOfPath } from '../../sandbox/protocol-modules.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import { createBrowserLearnerWorker, type LearnerWorkerLike } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import type { ExerciseStore } from '../exercise/exercise-store.ts';
import type { LiveSessionStore } from '../live-session/live-session-store.ts';
import { bridgeLearnerCodeFromPage } from '../../runtime/bridge-host.ts';
import type { LearnerCodeMode } from '../../runtime/bridge-messages.ts';
import type { HostKind } from '../../runtime/host.ts';
import { createWorkerHost } from '../../runtime/worker-host.ts';
import { SdkChecksStore, type ForeignCodeSource, type ClientCheckCode } from './sdk-checks-store.ts';

/** The exercise each check takes the learner's code from. */
export const CHECKED_EXERCISES = { client: '03-client', server: '04-server' } as const;
/** The exercise Check my client takes its code from, per choice (exercise 7: the dual-era client's ModernSession). */
export const CLIENT_CODE_EXERCISES: Record<ClientCheckCode, string> = { 'exercise-3': CHECKED_EXERCISES.client, 'exercise-6': '06-streamable-http', 'exercise-7': '07-stateless-era' };
/** Each code's file name when its exercise is not in the catalogue (messages name the file). */
const CLIENT_CODE_FILES: Record<ClientCheckCode, string> = { 'exercise-3': 'client.ts', 'exercise-6': 'streamable-client.ts', 'exercise-7': 'stateless-client.ts' };
/** …and its reference module, so a pasted reference's relative imports resolve. */
const CLIENT_CODE_MODULES: Partial<Record<ClientCheckCode, string>> = { 'exercise-6': '@protocol/http/streamable-client' };

export interface CreateSdkChecksOptions {
  session: Pick<LiveSessionStore, 'getSnapshot' | 'chosenHost'>;
  exercises: Pick<ExerciseStore, 'codeOf' | 'find'> & Partial<Pick<ExerciseStore, 'isSharedCopy' | 'selected' | 'codeSource' | 'trustImportedCode'>>;
  createLearnerWorker?: () => LearnerWorkerLike;
  bridgeLearnerCode?: () => LearnerCodeMode;
  /** Asked before code from a share link or an imported file runs anywhere but the worker (the panel words it). */
  confirmSharedCode?: (host: HostKind, source: ForeignCodeSource) => Promise<boolean>;
}

export function createSdkChecks(options: CreateSdkChecksOptions): SdkChecksStore {
  const { session, exercises } = options;
  const createWorker = options.createLearnerWorker ?? createBrowserLearnerWorker;
  let workerHost: ReturnType<typeof createWorkerHost> | undefined;
  const source = (id: string, fallbackFile: string, fallbackModule?: string): LearnerSource => {
    const meta = exercises.find(id)?.meta;
    return { code: exercises.codeOf(id), file: meta?.learnerFile ?? fallbackFile, moduleId: meta ? protocolIdOfPath(solutionEntry(meta)) : fallbackModule };
  };
  return new SdkChecksStore({
    hostSelection: () => session.getSnapshot().host.selection,
    host: () => session.chosenHost(),
    bridgeLearnerCode: options.bridgeLearnerCode ?? bridgeLearnerCodeFromPage,
    // Made when first needed: most pages never fall back.
    workerHost: () => (workerHost ??= createWorkerHost()),
    serverCodeIsShared: () => exercises.isSharedCopy?.(CHECKED_EXERCISES.server) ?? false,
    serverCodeSource: () => exercises.codeSource?.(CHECKED_EXERCISES.server) ?? (exercises.isSharedCopy?.(CHECKED_EXERCISES.server) ? 'share-link' : 'own'),
    confirmSharedCode: options.confirmSharedCode,
    sharedCodeAccepted: (codeSource) => {
      if (codeSource === 'imported-file') exercises.trustImportedCode?.(CHECKED_EXERCISES.server);
    },
    clientSource: (code) => source(CLIENT_CODE_EXERCISES[code], CLIENT_CODE_FILES[code], CLIENT_CODE_MODULES[code]),
    // On exercise 6 or 7 the check runs that exercise's code (the learner can still choose another).
    defaultClientCode: () => {
      const selected = exercises.selected?.()?.meta.id;
      return selected === CLIENT_CODE_EXERCISES['exercise-7'] ? 'exercise-7' : selected === CLIENT_CODE_EXERCISES['exercise-6'] ? 'exercise-6' : 'exercise-3';
    },
    serverSource: () => {
      const { code, file, moduleId } = source(CHECKED_EXERCISES.server, 'server.ts');
      return moduleId === undefined ? { code, file } : { code, file, moduleId };
    },
    createClientDriver: (learner, era) => new LearnerDriver(learner, createWorker, {}, era),
    createHttpClientDriver: (learner) => new LearnerHttpDriver(learner, createWorker),
  });
}
