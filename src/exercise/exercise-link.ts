// A link from one lesson to another exercise: `#exercise=07-stateless-era`. Lessons are Markdown,
// so a cross-reference is an ordinary link with this hash; the study view opens the exercise it
// names (src/ui/exercise/use-exercise-link.ts) and takes the hash out of the address again, so the
// same link works a second time. Any other hash is not an exercise link.

export const EXERCISE_HASH_PREFIX = '#exercise=';

/** The exercise id a `#exercise=<id>` hash names, or undefined. Ids look like `07-stateless-era`. */
export function exerciseIdOfHash(hash: string): string | undefined {
  if (!hash.startsWith(EXERCISE_HASH_PREFIX)) return undefined;
  const id = hash.slice(EXERCISE_HASH_PREFIX.length);
  return /^\d{2}-[a-z0-9-]+$/.test(id) ? id : undefined;
}

export function exerciseHash(id: string): string {
  return `${EXERCISE_HASH_PREFIX}${id}`;
}
