import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { protocolModulesFromGlob } from './protocol-modules.ts';
import { PROTOCOL_MODULE_MAP } from './protocol-module-map.ts';

const PROTOCOL_DIR = join(import.meta.dirname, '../protocol');

function moduleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('PROTOCOL_MODULE_MAP', () => {
  it('lists exactly the reference modules in src/protocol, under the ids the glob gives them', () => {
    const fromDisk = protocolModulesFromGlob(Object.fromEntries(moduleFiles(PROTOCOL_DIR).map((path) => [`../protocol/${relative(PROTOCOL_DIR, path)}`, {}])));
    expect(Object.keys(PROTOCOL_MODULE_MAP).sort()).toEqual(Object.keys(fromDisk).sort());
  });

  it('holds the real modules (the reference McpServer is a class)', () => {
    expect(typeof (PROTOCOL_MODULE_MAP['@protocol/server'] as { McpServer: unknown }).McpServer).toBe('function');
  });
});
