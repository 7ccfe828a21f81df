// Everything the protocol view needs, made once per page from the live session and the exercise
// store: the stepper on top of the live server, the lab, the inspector's state, and where the
// learner's code for exercises 2, 3 and 5 comes from.

import { solutionEntry } from '../../exercise/catalogue.ts';
import { protocolIdOfPath } from '../../sandbox/protocol-modules.ts';
import { FAULT_NAMES } from '../../protocol/faults.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { ExerciseStore } from '../exercise/exercise-store.ts';
import type { LiveSessionStore } from '../live-session/live-session-store.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import { LabStore } from '../failure-lab/lab-store.ts';
import { LearnerDriver, learnerRegisterRunner, runLearnerReader, type LearnerReplay } from '../protocol/learner-driver.ts';
import type { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import type { LearnerAuthSteps } from '../protocol/learner-auth-steps.ts';
import { createBrowserLearnerWorker, type LearnerWorkerLike } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { ProtocolUiStore } from '../protocol/protocol-ui-store.ts';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { LazyEraDriver } from '../protocol/lazy-era-driver.ts';
import { StepperStore, type RunConfig, type ServerPort } from '../protocol/stepper-store.ts';

/** The exercise whose code each part of the learner's stack comes from. */
export const LEARNER_EXERCISES = { reader: '02-frames', client: '03-client', register: '05-register-mcp-tools', era: '07-stateless-era', http: '06-streamable-http', auth: '08-authorization' } as const;
export type LearnerPartName = keyof typeof LEARNER_EXERCISES;
/**
 * A part's file name and reference module when its exercise is not in the catalogue (messages name
 * the file; the module id lets a pasted reference's relative imports resolve).
 */
const LEARNER_FALLBACK_FILES: Partial<Record<LearnerPartName, string>> = { http: 'streamable-client.ts' };
const LEARNER_FALLBACK_MODULES: Partial<Record<LearnerPartName, string>> = { http: '@protocol/http/streamable-client' };

export interface ProtocolServices {
  stepper: StepperStore;
  lab: LabStore;
  ui: ProtocolUiStore;
  session: LiveSessionStore;
  learnerSource(part: LearnerPartName): LearnerSource;
  learnerReader(framing: FramingName, chunks: readonly Uint8Array[]): Promise<LearnerReplay>;
  /** The HTTP stepper's "your code": the learner's exercise-6 module in a fresh learner worker. */
  learnerHttpDriver(): Promise<{ driver: LearnerHttpDriver; file: string }>;
  /** The learner's exercise 8 steps for the sign-in scene, in a fresh learner worker (what the editor holds now). */
  learnerAuthSteps(): Promise<LearnerAuthSteps>;
  /** Make the live server (and so the stepper) speak `framing`; restarts the stepper. */
  chooseFraming(framing: FramingName): Promise<void>;
  dispose(): void;
}

export interface ProtocolServicesOptions {
  session: LiveSessionStore;
  exercises: Pick<ExerciseStore, 'codeOf' | 'find'>;
  createLearnerWorker?: () => LearnerWorkerLike;
}

export function createProtocolServices(options: ProtocolServicesOptions): ProtocolServices {
  const { session, exercises } = options;
  const createWorker = options.createLearnerWorker ?? createBrowserLearnerWorker;
  const learnerSource = (part: LearnerPartName): LearnerSource => {
    const id = LEARNER_EXERCISES[part];
    const meta = exercises.find(id)?.meta;
    return { code: exercises.codeOf(id), file: meta?.learnerFile ?? LEARNER_FALLBACK_FILES[part] ?? `${part}.ts`, moduleId: meta ? protocolIdOfPath(solutionEntry(meta)) : LEARNER_FALLBACK_MODULES[part] };
  };
  const stepper = new StepperStore({
    server: liveSessionServerPort(session),
    createDriver: (kind: DriverKind, config: RunConfig) => {
      // The dual-era client loads with its first era run, out of the first paint.
      // "Your client" in an era run: the learner's exercise 7 ModernSession inside the dual-era client, in a worker.
      if (config.eraClient) return kind === 'learner' ? new LearnerDriver(learnerSource('era'), createWorker, {}, config.eraClient) : new LazyEraDriver(config.eraClient);
      return kind === 'learner' ? new LearnerDriver(learnerSource('client'), createWorker) : new ReferenceDriver();
    },
    createRegisterRunner: (kind: DriverKind) => (kind === 'learner' ? learnerRegisterRunner(() => learnerSource('register'), createWorker) : referenceRegisterRunner),
  });
  const learnerReader = (framing: FramingName, chunks: readonly Uint8Array[]) => runLearnerReader(learnerSource('reader'), framing, chunks, createWorker);
  const lab = new LabStore({ stepper, learnerReader });
  return {
    stepper,
    lab,
    ui: new ProtocolUiStore(),
    session,
    learnerSource,
    learnerReader,
    // Loaded with the first HTTP session driven by the learner's code, out of the first paint.
    async learnerHttpDriver() {
      const source = learnerSource('http');
      const { LearnerHttpDriver } = await import('../protocol/learner-http-driver.ts');
      return { driver: new LearnerHttpDriver(source, createWorker), file: source.file };
    },
    async learnerAuthSteps() {
      const source = learnerSource('auth');
      const { learnerAuthSteps } = await import('../protocol/learner-auth-steps.ts');
      return learnerAuthSteps(source, createWorker);
    },
    async chooseFraming(framing) {
      stepper.restart();
      await session.stopServer();
      session.setFraming(framing);
    },
    dispose: () => stepper.dispose(),
  };
}

/** The live panel's server, as the stepper starts it: stop what runs, apply the settings, start. */
export function liveSessionServerPort(session: LiveSessionStore): ServerPort {
  return {
    settings: () => {
      const { framing, faults } = session.getSnapshot();
      return { framing, faults };
    },
    async start(settings) {
      await whenHostChosen(session);
      await session.stopServer();
      session.setFraming(settings.framing);
      session.setEra(settings.era ?? 'dual');
      for (const fault of FAULT_NAMES) session.setFault(fault, settings.faults.includes(fault));
      const wire = await session.startServer();
      if (wire) return { ok: true, wire };
      const { server, host } = session.getSnapshot();
      if (server.status === 'failed') return { ok: false, reason: server.reason };
      return { ok: false, reason: host.selection.status === 'chosen' ? 'the server did not start' : 'no host can run the server here' };
    },
  };
}

/** Host selection runs at page load; a Step pressed before it finished waits for it. */
export function whenHostChosen(session: LiveSessionStore, timeoutMs = 30_000): Promise<void> {
  if (session.getSnapshot().host.selection.status !== 'probing') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = session.subscribe(() => {
      if (session.getSnapshot().host.selection.status !== 'probing') done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}
