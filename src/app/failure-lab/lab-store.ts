// The failure-mode lab: which variant each card shows, which card is running, and each card's
// last verdict. A run drives the shared stepper (so the symptom is drawn where the learner already
// looks) and, for the reader cards with the learner's code, replays the server's chunks through
// their exercise 2 reader.

import { getFraming } from '../../protocol/framing/index.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import { createStore, type Store } from '../store/create-store.ts';
import { replayChunks } from '../../protocol/inspect/chunk-replay.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import { findScenario, judge, readerVerdictInput, scenarioConfig, type ScenarioId, type Verdict } from './failure-scenarios.ts';
import type { LearnerReplay } from '../protocol/learner-driver.ts';
import type { StepperStore } from '../protocol/stepper-store.ts';

export interface CardResult {
  who: DriverKind;
  variantId: string;
  verdict: Verdict;
}

export interface LabState {
  running: { id: ScenarioId; who: DriverKind } | null;
  results: Partial<Record<ScenarioId, CardResult>>;
  variants: Partial<Record<ScenarioId, string>>;
}

export interface LabStoreOptions {
  stepper: StepperStore;
  /** The learner's exercise 2 reader over recorded chunks (in a worker). */
  learnerReader(framing: FramingName, chunks: readonly Uint8Array[]): Promise<LearnerReplay>;
}

export class LabStore {
  readonly store: Store<LabState> = createStore<LabState>({ running: null, results: {}, variants: {} });

  constructor(private readonly options: LabStoreOptions) {}

  getSnapshot = (): LabState => this.store.getSnapshot();
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  variantOf(id: ScenarioId): string {
    return this.getSnapshot().variants[id] ?? findScenario(id).variants[0]!.id;
  }

  selectVariant(id: ScenarioId, variantId: string): void {
    this.store.setState((state) => ({ ...state, variants: { ...state.variants, [id]: variantId } }));
  }

  async run(id: ScenarioId, who: DriverKind): Promise<CardResult | null> {
    if (this.getSnapshot().running !== null) return null;
    const scenario = findScenario(id);
    const variant = scenario.variants.find((candidate) => candidate.id === this.variantOf(id)) ?? scenario.variants[0]!;
    this.store.setState((state) => ({ ...state, running: { id, who } }));
    try {
      const { stepper } = this.options;
      stepper.load(scenarioConfig(scenario, variant, who));
      await stepper.runToEnd();
      let replay;
      if (who === 'learner' && scenario.learnerPart === 'reader') {
        const chunks = stepper.streamChunks('s2c');
        const framing = variant.settings.framing;
        const reference = replayChunks(() => getFraming(framing).createReader(), chunks);
        replay = readerVerdictInput(reference, await this.options.learnerReader(framing, chunks));
      }
      const result: CardResult = { who, variantId: variant.id, verdict: judge(scenario, variant, stepper.getSnapshot().records, who, replay) };
      this.store.setState((state) => ({ ...state, results: { ...state.results, [id]: result } }));
      return result;
    } finally {
      this.store.setState((state) => ({ ...state, running: null }));
    }
  }
}
