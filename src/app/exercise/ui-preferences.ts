// Small choices the page remembers across visits, apart from the learner's progress: the exercise
// last open and whether Ctrl+S runs the tests. Losing them costs a click, so a storage that is
// missing, full or holding garbage is simply ignored.

export interface UiPreferenceValues {
  exerciseId: string | null;
  runOnSave: boolean;
}

export interface UiPreferences {
  read(): UiPreferenceValues;
  write(patch: Partial<UiPreferenceValues>): void;
}

export const UI_PREFERENCES_KEY = 'mcp-playground.exercise-ui';

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const DEFAULTS: UiPreferenceValues = { exerciseId: null, runOnSave: false };

export function storedUiPreferences(storage: StorageLike | null): UiPreferences {
  const read = (): UiPreferenceValues => {
    try {
      const data: unknown = JSON.parse(storage?.getItem(UI_PREFERENCES_KEY) ?? 'null');
      if (typeof data !== 'object' || data === null) return { ...DEFAULTS };
      const { exerciseId, runOnSave } = data as Record<string, unknown>;
      return { exerciseId: typeof exerciseId === 'string' ? exerciseId : null, runOnSave: runOnSave === true };
    } catch {
      return { ...DEFAULTS };
    }
  };
  return {
    read,
    write(patch) {
      try {
        storage?.setItem(UI_PREFERENCES_KEY, JSON.stringify({ ...read(), ...patch }));
      } catch {
        // Not remembered; the choice still holds for this visit.
      }
    },
  };
}
