// Which exercises hold code that came from an imported progress file and that the learner has not
// yet agreed to run outside the worker. A progress file can come from anyone, like a share link,
// so its code gets the same question before it runs as a process (bridge) or in Node in the
// browser (WebContainer). Saved beside the progress, so a reload does not forget whose code it is.

import type { StorageLike } from '../../exercise/progress-store.ts';

export const IMPORTED_CODE_KEY = 'mcp-playground:imported-code';

export class ImportedCodeMarks {
  private marked: Set<string>;

  constructor(private readonly storage: StorageLike | null = null) {
    this.marked = new Set(this.read());
  }

  has(id: string): boolean {
    return this.marked.has(id);
  }

  ids(): string[] {
    return [...this.marked];
  }

  /** Replace every mark (an import adds its exercises; undo puts the earlier set back). */
  set(ids: Iterable<string>): void {
    this.marked = new Set(ids);
    this.write();
  }

  /** The learner agreed to run this exercise's code outside the worker: ask no more. */
  remove(id: string): void {
    if (this.marked.delete(id)) this.write();
  }

  private read(): string[] {
    try {
      const parsed: unknown = JSON.parse(this.storage?.getItem(IMPORTED_CODE_KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  private write(): void {
    try {
      if (this.marked.size === 0) this.storage?.removeItem(IMPORTED_CODE_KEY);
      else this.storage?.setItem(IMPORTED_CODE_KEY, JSON.stringify([...this.marked]));
    } catch {
      // Storage full or gone: the marks still hold for this page.
    }
  }
}
