// Makes the protocol view's services once, from the live session and the exercises above it, and
// mounts the byte inspector dialog, so the protocol view and the live panel's log share them.

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { InspectorDialog } from './InspectorDialog.tsx';
import { createProtocolServices, type ProtocolServices } from '../../app/services/protocol-services.ts';
import './protocol-view.css';

/** The services, for the components under the provider (the protocol view, the Chapter loop, the presenter, the live panel's log). */
export const ProtocolServicesContext = createContext<ProtocolServices | null>(null);

export function useProtocolServices(): ProtocolServices {
  const services = useContext(ProtocolServicesContext);
  if (services === null) throw new Error('useProtocolServices needs a <ProtocolServicesContext.Provider> above it');
  return services;
}

export function ProtocolServicesProvider({ children, services }: { children: ReactNode; services?: ProtocolServices }) {
  const session = useLiveSession();
  const exercises = useExercises();
  const [value] = useState(() => services ?? createProtocolServices({ session, exercises }));
  useEffect(() => () => value.stepper.restart(), [value]);
  return (
    <ProtocolServicesContext.Provider value={value}>
      {children}
      <InspectorDialog />
    </ProtocolServicesContext.Provider>
  );
}
