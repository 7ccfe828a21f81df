// Pure checks that two translations of one namespace match: the same keys, every value a non-empty
// string, the same {{variables}} in each string. Used by the completeness test that discovers every
// namespace in src/locales (tests/i18n/completeness.test.ts).

export function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}

export function interpolations(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '').sort();
}

export function leaf(resource: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), resource);
}

/** Every way `translated` falls short of `source`, one readable line each; empty when they match. */
export function compareResources(source: unknown, translated: unknown, sourceName = 'en', translatedName = 'zh-CN'): string[] {
  const sourceKeys = new Set(keyPaths(source));
  const translatedKeys = new Set(keyPaths(translated));
  const problems: string[] = [];
  for (const key of sourceKeys) if (!translatedKeys.has(key)) problems.push(`${key}: missing in ${translatedName}`);
  for (const key of translatedKeys) if (!sourceKeys.has(key)) problems.push(`${key}: missing in ${sourceName}`);
  for (const key of sourceKeys) {
    if (!translatedKeys.has(key)) continue;
    const a = leaf(source, key);
    const b = leaf(translated, key);
    for (const [name, value] of [[sourceName, a], [translatedName, b]] as const) {
      if (typeof value !== 'string') problems.push(`${key}: not a string in ${name}`);
      else if (value.trim() === '') problems.push(`${key}: empty in ${name}`);
    }
    if (typeof a === 'string' && typeof b === 'string' && interpolations(a).join() !== interpolations(b).join()) {
      problems.push(`${key}: variables {{${interpolations(a).join(', ')}}} in ${sourceName} but {{${interpolations(b).join(', ')}}} in ${translatedName}`);
    }
  }
  return problems;
}

/**
 * Keys whose "translation" is the English text copied over. Short strings and names (English,
 * WebContainer, MCP Playground) may be the same in both; two English words in a row may not.
 */
export function untranslatedKeys(source: unknown, translated: unknown): string[] {
  return keyPaths(source).filter((path) => {
    const value = leaf(translated, path);
    return typeof value === 'string' && value === leaf(source, path) && /[a-z]{4,}\s+[a-z]{4,}/i.test(value);
  });
}
