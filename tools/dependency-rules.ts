// Runs dependency-cruiser with the rules in .dependency-cruiser.cjs over the project and returns
// the violations. tests/architecture/dependency-rules.test.ts calls it, so `npm test` fails on an
// import that runs back up a layer; `npm run deps` prints the same report from the CLI.
// dependency-cruiser parses with swc; depcruise-swc-tsx.cjs lets it read .tsx files.

import { createRequire } from 'node:module';
import type { ICruiseOptions, ICruiseResult, IForbiddenRuleType, IViolation } from 'dependency-cruiser';
import { PROJECT_ROOT } from './project-root.ts';

/** The folders that are cruised: every folder that holds project code. */
export const CRUISED_FOLDERS = ['src', 'server', 'tools', 'scripts', 'bench', 'tests'] as const;

const require = createRequire(import.meta.url);

export interface DependencyRulesOptions {
  /** Files and folders to cruise, relative to `baseDir`. Default: CRUISED_FOLDERS. */
  paths?: readonly string[];
  /** The folder the rule paths are relative to. Default: the project root. */
  baseDir?: string;
}

/** Cruises the project and returns what the rules forbid (empty when all arrows point down). */
export async function checkDependencyRules(options: DependencyRulesOptions = {}): Promise<IViolation[]> {
  const result = await cruiseProject(options);
  return result.summary.violations;
}

export async function cruiseProject(options: DependencyRulesOptions = {}): Promise<ICruiseResult> {
  require('./depcruise-swc-tsx.cjs');
  const { cruise } = await import('dependency-cruiser');
  const config = require(`${PROJECT_ROOT}/.dependency-cruiser.cjs`) as { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };
  const baseDir = options.baseDir ?? PROJECT_ROOT;
  const cruiseOptions: ICruiseOptions = { ...config.options, baseDir, ruleSet: { forbidden: config.forbidden }, validate: true };
  const output = await cruise([...(options.paths ?? CRUISED_FOLDERS)], cruiseOptions, config.options.enhancedResolveOptions);
  if (typeof output.output === 'string') throw new Error(`dependency-cruiser returned text instead of a result: ${output.output.slice(0, 500)}`);
  return output.output;
}

/** One line per violation: `rule: from → to` (and the cycle, for a cycle). */
export function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle?.length ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}
