// The layer rules of docs/ARCHITECTURE.md, enforced: dependency-cruiser with .dependency-cruiser.cjs
// over the whole project finds nothing, and a planted import that breaks a rule is caught.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDependencyRules, describeViolation } from '../../tools/dependency-rules.ts';

describe('dependency rules', () => {
  it('hold for the whole project: every import points down a layer, no cycles, no Node in the browser', async () => {
    const violations = await checkDependencyRules();
    expect(violations.map(describeViolation)).toEqual([]);
  });

  describe('catch a planted violation', () => {
    let root: string | undefined;
    afterAll(async () => {
      if (root) await rm(root, { recursive: true, force: true });
    });

    async function plant(files: Record<string, string>): Promise<string[]> {
      root = await mkdtemp(join(tmpdir(), 'dependency-rules-'));
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), text);
      }
      const violations = await checkDependencyRules({ baseDir: root, paths: ['src'] });
      return violations.map((violation) => violation.rule.name).sort();
    }

    it('catches each kind of arrow that runs the wrong way, and leaves the right ones alone', async () => {
      const names = await plant({
        // protocol → app, app → ui: both back up; together with ui → protocol, a cycle of folders.
        'src/protocol/codec.ts': "import { step } from '../app/protocol/stepper.ts';\nexport const codec = step;\n",
        'src/app/protocol/stepper.ts': "import { Panel } from '../../ui/protocol/Panel.tsx';\nexport const step = Panel;\n",
        // A browser component that reaches for Node and for the server.
        'src/ui/protocol/Panel.tsx':
          "import { readFileSync } from 'node:fs';\nimport { codec } from '../../protocol/codec.ts';\nimport { serve } from '../../../server/bridge.ts';\nexport const Panel = () => <p>{String(codec)}{String(readFileSync)}{String(serve)}</p>;\n",
        'server/bridge.ts': 'export const serve = 1;\n',
        // sandbox → runtime, runtime → exercise, exercise → app.
        'src/sandbox/run.ts': "import { host } from '../runtime/host.ts';\nexport const run = host;\n",
        'src/runtime/host.ts': "import { catalogue } from '../exercise/catalogue.ts';\nexport const host = catalogue;\n",
        'src/exercise/catalogue.ts': "import { store } from '../app/exercise/store.ts';\nexport const catalogue = store;\n",
        'src/app/exercise/store.ts': "import { codec } from '../../protocol/codec.ts';\nexport const store = codec;\n",
        // A store that reaches for React (a stand-in package, resolved like the real one).
        'src/app/exercise/context.ts': "import { createContext } from 'react';\nexport const context = createContext(null);\n",
        'node_modules/react/package.json': '{ "name": "react", "main": "index.js" }\n',
        'node_modules/react/index.js': 'exports.createContext = () => null;\n',
        // Allowed: a test beside browser code runs in Node and may use node:*.
        'src/app/exercise/store.test.ts': "import { readFileSync } from 'node:fs';\nimport { store } from './store.ts';\nexport const used = [readFileSync, store];\n",
      });
      expect(new Set(names)).toEqual(
        new Set([
          'protocol-is-pure',
          'sandbox-uses-protocol-only',
          'runtime-below-exercise-and-app',
          'exercise-below-runtime-and-app',
          'app-below-ui',
          'app-is-react-free',
          'only-ui-imports-ui',
          'no-feature-folder-cycles',
          'browser-no-node-builtins',
          'browser-no-node-folders',
        ]),
      );
    });
  });
});
