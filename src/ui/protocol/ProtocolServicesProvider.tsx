// Makes the protocol view's services once, from the live session and the exercises above it, and
// mounts the byte inspector dialog, so the protocol view and the live panel's log share them.

import { useEffect, useState, type ReactNode } from 'react';
import { useExercises } from '../exercise-context.ts';
import { useLiveSession } from '../live-session-context.ts';
import { InspectorDialog } from './InspectorDialog.tsx';
import { createProtocolServices, ProtocolServicesContext, type ProtocolServices } from '../../app/protocol/protocol-services.ts';
import './protocol-view.css';

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
