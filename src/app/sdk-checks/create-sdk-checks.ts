// Makes the page's SdkChecksStore from the live session (its chosen host) and the exercise store
// (the learner's saved exercise 3 and 4 code), as protocol-services.ts does for the protocol view.

import { solutionEntry } from '../../exercise/catalogue.ts';
import { protocolIdOfPath } from '../../sandbox/protocol-modules.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { createBrowserLearnerWorker, type LearnerWorkerLike } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import type { ExerciseStore } from '../exercise/exercise-store.ts';
import type { LiveSessionStore } from '../live-session/live-session-store.ts';
import { bridgeIsSharedFromPage } from '../../runtime/bridge-host.ts';
import { SdkChecksStore } from './sdk-checks-store.ts';

/** The exercise each check takes the learner's code from. */
export const CHECKED_EXERCISES = { client: '03-client', server: '04-server' } as const;

export interface CreateSdkChecksOptions {
  session: Pick<LiveSessionStore, 'getSnapshot' | 'chosenHost'>;
  exercises: Pick<ExerciseStore, 'codeOf' | 'find'>;
  createLearnerWorker?: () => LearnerWorkerLike;
  sharedBridge?: () => boolean;
}

export function createSdkChecks(options: CreateSdkChecksOptions): SdkChecksStore {
  const { session, exercises } = options;
  const createWorker = options.createLearnerWorker ?? createBrowserLearnerWorker;
  const source = (id: string, fallbackFile: string): LearnerSource => {
    const meta = exercises.find(id)?.meta;
    return { code: exercises.codeOf(id), file: meta?.learnerFile ?? fallbackFile, moduleId: meta ? protocolIdOfPath(solutionEntry(meta)) : undefined };
  };
  return new SdkChecksStore({
    hostSelection: () => session.getSnapshot().host.selection,
    host: () => session.chosenHost(),
    sharedBridge: options.sharedBridge ?? bridgeIsSharedFromPage,
    clientSource: () => source(CHECKED_EXERCISES.client, 'client.ts'),
    serverSource: () => {
      const { code, file, moduleId } = source(CHECKED_EXERCISES.server, 'server.ts');
      return moduleId === undefined ? { code, file } : { code, file, moduleId };
    },
    createClientDriver: (learner) => new LearnerDriver(learner, createWorker),
  });
}
