// Every hint answers a rule. Each chunk of exercises/*/hints.<locale>.md names the lesson sections
// it addresses (a first line like `{#pairing-by-id}`), so a failing test in the results can offer
// the hint for its own section. This test fails on a hint that names no section or one the lesson
// does not have, on a Chinese hint that addresses other sections than its English twin, and on a
// section that states rules (rules.json lists tests for it) with no hint in some language.

import { describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { LOCALES } from '../../src/exercise/types.ts';

const { exercises } = readCatalogueFromDisk(undefined, { drafts: true });

/** The `{#id}` of every `## ` heading, in order. */
function sectionIds(markdown: string): string[] {
  return [...markdown.matchAll(/^## .*\{#([\w-]+)\}\s*$/gm)].map((match) => match[1] as string);
}

describe.each(exercises.map((exercise) => [exercise.meta.id, exercise] as const))('%s', (_id, exercise) => {
  const lesson = sectionIds(exercise.content.en ?? '');
  const ruled = Object.keys(exercise.rules ?? {});

  it('has rules and hints in every language', () => {
    expect(ruled.length).toBeGreaterThan(0);
    for (const locale of LOCALES) expect(exercise.hints[locale]?.length ?? 0, locale).toBeGreaterThan(0);
  });

  it.each(LOCALES)('every %s hint names lesson sections that exist, the same ones as the English hint', (locale) => {
    const hints = exercise.hints[locale] ?? [];
    hints.forEach((hint, index) => {
      expect(hint.sections.length, `hint ${index + 1} names no section`).toBeGreaterThan(0);
      expect(hint.sections.filter((section) => !lesson.includes(section)), `hint ${index + 1}`).toEqual([]);
      expect(hint.sections, `hint ${index + 1}`).toEqual(exercise.hints.en?.[index]?.sections);
    });
  });

  it.each(LOCALES)('every section with rules has a %s hint', (locale) => {
    const addressed = new Set((exercise.hints[locale] ?? []).flatMap((hint) => hint.sections));
    expect(ruled.filter((section) => !addressed.has(section))).toEqual([]);
  });
});
