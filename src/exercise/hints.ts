// Hints and lesson rules, keyed by lesson section. A hint file (`hints.<locale>.md`) is chunks
// separated by `---` lines; each chunk opens with a line naming the lesson sections it addresses
// (`{#ids} {#pairing-by-id}`, the `{#id}` anchors of content.*.md), so a failing test can offer the
// hint for its own rule instead of "the next one in the file". `rules.json` maps each section to the
// spec tests enforcing it (tests/exercise-engine/lesson-rules.test.ts keeps it true); read here, it
// tells which section a failing test belongs to.

export interface Hint {
  /** The lesson section ids this hint addresses, in the order the file names them. */
  sections: string[];
  /** The hint's Markdown, without its section line. */
  text: string;
}

/** Lesson section id → the full names ('describe › title') of the spec tests enforcing it. */
export type LessonRules = Record<string, string[]>;

const SECTION_LINE = /^[ \t]*(\{#[\w-]+\}[ \t]*)+$/;

/** Hints are separated by lines holding only `---`; empty hints are dropped; a first `{#id}` line names the sections. */
export function parseHints(text: string): Hint[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/^[ \t]*---[ \t]*$/m)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const newline = chunk.indexOf('\n');
      const first = newline === -1 ? chunk : chunk.slice(0, newline);
      if (!SECTION_LINE.test(first)) return { sections: [], text: chunk };
      const sections = [...first.matchAll(/\{#([\w-]+)\}/g)].map((match) => match[1] as string);
      return { sections, text: newline === -1 ? '' : chunk.slice(newline + 1).trim() };
    })
    .filter((hint) => hint.text.length > 0);
}

/**
 * `rules.json` → the sections that name tests (a section whose value is a sentence states no
 * rule and is left out). Returns the reason it is unusable as a string.
 */
export function parseRules(text: string): LessonRules | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const sections = typeof data === 'object' && data !== null ? (data as { sections?: unknown }).sections : undefined;
  if (typeof sections !== 'object' || sections === null || Array.isArray(sections)) return 'must hold "sections", an object';
  const rules: LessonRules = {};
  for (const [id, value] of Object.entries(sections)) {
    if (Array.isArray(value) && value.every((name) => typeof name === 'string')) rules[id] = value as string[];
  }
  return rules;
}

/**
 * The sections a test enforces, in the rules' order. A test that several sections claim (a
 * property test over a whole session) lists each; `preferred` (its describe block's section)
 * goes first when it is one of them, so the row offers the most specific rule.
 */
export function sectionsOfTest(rules: LessonRules | undefined, testName: string, preferred?: string): string[] {
  const found = rules === undefined ? [] : Object.keys(rules).filter((id) => (rules[id] as string[]).includes(testName));
  if (found.length === 0) return preferred === undefined ? [] : [preferred];
  if (preferred !== undefined && found.includes(preferred)) return [preferred, ...found.filter((id) => id !== preferred)];
  return found;
}

/** The index of the first hint that addresses `section` and is not in `shown`; else the first that addresses it; -1 when none does. */
export function hintForSection(hints: readonly Hint[], section: string, shown: readonly number[] = []): number {
  const addressing = hints.flatMap((hint, index) => (hint.sections.includes(section) ? [index] : []));
  return addressing.find((index) => !shown.includes(index)) ?? addressing[0] ?? -1;
}
