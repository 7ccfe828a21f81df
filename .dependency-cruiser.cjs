// The import rules that keep the layers of docs/ARCHITECTURE.md pointing down. Run by
// tests/architecture/dependency-rules.test.ts (so `npm test` fails on a violation), or by hand:
//   npx depcruise src server tools scripts bench tests --config .dependency-cruiser.cjs
//
// Each layer may import only the layers above it in this table (and itself):
//   protocol  (src/protocol, incl. inspect/)  nothing
//   sandbox   (src/sandbox)                    protocol
//   exercise  (src/exercise)                   protocol, sandbox
//   runtime   (src/runtime)                    protocol, sandbox
//   app       (src/app)                        protocol, sandbox, exercise, runtime
//   ui        (src/ui)                         all of the above
// Nothing imports src/ui but src/ui itself and src/main.tsx. Test files (*.test.ts[x]) run in Node
// and may use tools/ and tests/ helpers, but they obey the same arrows between the src layers.

const TEST = '\\.test\\.tsx?$';

/** Browser code: everything under src/ but the tests, which run under Vitest in Node. */
const BROWSER = { path: '^src/', pathNot: TEST };

/** A rule that layer `from` (a folder under src/) may not import `to` (a regex over paths). */
function layer(name, from, to, comment) {
  return { name, severity: 'error', comment, from: { path: `^src/${from}/` }, to: { path: to } };
}

module.exports = {
  forbidden: [
    layer('protocol-is-pure', 'protocol', '^src/(sandbox|exercise|runtime|app|ui)/|^src/main\\.tsx$', 'src/protocol uses the language only: no other layer.'),
    layer('sandbox-uses-protocol-only', 'sandbox', '^src/(exercise|runtime|app|ui)/|^src/main\\.tsx$', 'src/sandbox (runs learner code) may use src/protocol only.'),
    layer('exercise-below-runtime-and-app', 'exercise', '^src/(runtime|app|ui)/|^src/main\\.tsx$', 'src/exercise may use src/protocol and src/sandbox only.'),
    layer('runtime-below-exercise-and-app', 'runtime', '^src/(exercise|app|ui)/|^src/main\\.tsx$', 'src/runtime may use src/protocol and src/sandbox only.'),
    layer('app-below-ui', 'app', '^src/(ui/|main\\.tsx$)', 'src/app is React-free logic: it never imports src/ui.'),
    {
      name: 'app-is-react-free',
      severity: 'error',
      comment:
        'src/app holds stores and state machines; React (components, hooks, contexts) belongs in src/ui.',
      from: { path: '^src/app/', pathNot: TEST },
      to: { path: '^node_modules/(react|react-dom)/' },
    },
    {
      name: 'only-ui-imports-ui',
      severity: 'error',
      comment: 'Components and hooks are imported by other components and by src/main.tsx only.',
      from: { pathNot: '^src/(ui/|main\\.tsx$)' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'no-feature-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'Feature folders (src/app/*, src/ui/*, and the layers themselves) must not depend on each other in a circle.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'browser-no-node-builtins',
      severity: 'error',
      comment: 'Browser code runs in a page or a worker: no node:* modules.',
      from: BROWSER,
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'browser-no-node-folders',
      severity: 'error',
      comment: 'Browser code never imports the Node side (server/), Node tooling (tools/, scripts/, bench/) or tests/.',
      from: BROWSER,
      to: { path: '^(server|tools|scripts|bench|tests)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a file that moved.',
      from: { path: '^(src|server|tools|scripts|bench|tests)/' },
      to: { couldNotResolve: true, pathNot: '^(virtual:|@learner$|@protocol/)|\\?(worker|raw|url)$' },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API, so dependency-cruiser parses with swc.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // Tests are left out: they run in Node and may reach across layers to set a scene up.
    exclude: { path: ['^(dist|public/generated|exercises)/', '^tests/', '\\.test\\.tsx?$', '^tools/testing/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
