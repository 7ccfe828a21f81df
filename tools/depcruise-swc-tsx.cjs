// dependency-cruiser parses TypeScript with swc here (TypeScript 7 has no JavaScript API), but its
// swc parser has no switch for JSX (a TODO in its source), so .tsx files fail to parse. Loaded
// before dependency-cruiser (`node --require`, or required by tools/dependency-rules.ts), this
// turns swc's `tsx` option on for .tsx files. Nothing else changes.
'use strict';

const swc = require('@swc/core');

if (!swc.__parseTsxAsTsx) {
  const parseFileSync = swc.parseFileSync.bind(swc);
  swc.parseFileSync = (file, options) =>
    parseFileSync(file, String(file).endsWith('.tsx') && options && options.syntax === 'typescript' ? { ...options, tsx: true } : options);
  swc.__parseTsxAsTsx = true;
}
