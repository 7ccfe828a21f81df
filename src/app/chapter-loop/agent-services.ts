// The Chapter loop's store, made once per page from the protocol view's services: the live
// session's server (the same start/stop the stepper uses), the learner's exercise 5 file from the
// progress store, and the learner worker.

import { createContext, useContext } from 'react';
import { createBrowserLearnerWorker, type LearnerWorkerLike } from '../../sandbox/learner-worker-client.ts';
import { liveSessionServerPort, type ProtocolServices } from '../services/protocol-services.ts';
import { createReferenceAgentRegistry, localToolRows } from './agent-registry.ts';
import { AgentStore } from './agent-store.ts';
import { createLearnerAgentRegistry } from './learner-agent-registry.ts';

export function createAppAgentStore(services: ProtocolServices, createWorker: () => LearnerWorkerLike = createBrowserLearnerWorker): AgentStore {
  return new AgentStore({
    server: liveSessionServerPort(services.session),
    // The learner's file is read at each merge, so the latest edit in the editor counts.
    createRegistry: (kind) => (kind === 'learner' ? createLearnerAgentRegistry(services.learnerSource('register'), createWorker) : createReferenceAgentRegistry()),
    localRows: localToolRows,
    // The stepper's run would see its server replaced mid-step; it starts over instead.
    beforeConnect: () => services.stepper.restart(),
  });
}

export const AgentStoreContext = createContext<AgentStore | null>(null);

export function useAgentStore(): AgentStore {
  const store = useContext(AgentStoreContext);
  if (store === null) throw new Error('useAgentStore needs an <AgentStoreContext.Provider> above it');
  return store;
}
