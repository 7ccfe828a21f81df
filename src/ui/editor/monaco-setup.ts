// Monaco, bundled locally and loaded only when an editor mounts (CodeEditor.tsx imports this file
// dynamically): the lean `monaco-editor/editor` entry, the editor features, and the TypeScript
// language alone (no other language's tokenizer or worker). The TypeScript worker is about 7 MB,
// which is why none of this may be in the page's first chunk.
//
// IntelliSense knows the exercise's types because every reference module is registered as an
// extra library at `file:///node_modules/@protocol/<path>.ts`: TypeScript's own module resolution
// then finds `'@protocol/jsonrpc'` (and `'@protocol/framing'` → its index.ts) with no path mapping.
// The learner's file sits at `file:///learner/<id>/<folder of the reference module>/<file>` and
// `rootDirs` merges each exercise's folder with the references' (the references first, so one
// exercise's file never stands in for a reference module in another), so relative imports
// (`'./mcp.ts'`) resolve exactly as the test runner resolves them: from where the reference
// module sits.

import * as monaco from 'monaco-editor/editor';
// The TypeScript feature's worker manager imports this module, and it registers every editor
// contribution (hover, suggest, find, the diff editor…) and the services they need. Imported here,
// before any editor exists: registered later (when the TypeScript mode loads, on the first model),
// the services are unknown to editors created afterwards ("depends on UNKNOWN service").
import 'monaco-editor/internal/common/workers';
import 'monaco-editor/languages/definitions/typescript/register';
import { typescriptDefaults } from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TypeScriptWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import type { Exercise } from '../../exercise/types.ts';

export type Monaco = typeof monaco;

const PROTOCOL_ROOT = 'file:///node_modules/@protocol/';
const LEARNER_ROOT = 'file:///learner/';

// Plain text of every reference module; part of this lazy chunk only.
const protocolSources = import.meta.glob<string>(['/src/protocol/**/*.ts', '!/src/protocol/**/*.test.ts', '!/src/protocol/inspect/**'], { query: '?raw', import: 'default', eager: true });

let ready: Monaco | undefined;

/** Monaco with its workers, compiler options and the reference modules in place (once). */
export function setupMonaco(exercises: readonly Exercise[]): Monaco {
  if (ready) return ready;
  (self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
    // Monaco asks for the TypeScript worker as soon as a TypeScript model exists; it gets it once
    // the learner reaches for an editor (wakeLanguageServiceOn), and its requests wait until then.
    getWorker: (_workerId: string, label: string) => (label === 'typescript' || label === 'javascript' ? languageServiceWanted.then(() => new TypeScriptWorker()) : new EditorWorker()),
  };
  typescriptDefaults.setCompilerOptions({
    // The project's own settings (tsconfig.json), so the reference modules check cleanly here too.
    target: 99, // ESNext
    module: 99, // ESNext
    moduleResolution: 100 as unknown as 2, // Bundler: not in Monaco's enum, understood by its TypeScript 5.9
    lib: ['es2023', 'dom'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noFallthroughCasesInSwitch: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    allowNonTsExtensions: true,
    rootDirs: [PROTOCOL_ROOT, ...exercises.map((exercise) => `${LEARNER_ROOT}${exercise.meta.id}/`)],
  });
  typescriptDefaults.setExtraLibs(Object.entries(protocolSources).map(([path, content]) => ({ content, filePath: protocolUri(path) })));
  ready = monaco;
  return monaco;
}

// The TypeScript language service starts when the learner first reaches for an editor (focus, the
// pointer over it, an edit), not when the editor appears. Its worker is about 7 MB to parse and
// builds a program over the reference modules: measured on this project's 2-core machine, a study
// page's renderer used 2.4 s of CPU in its first 6 s with it and about 1.4 s without, time a visit that
// reads the lesson and runs the tests never needed. Highlighting is Monaco's own tokenizer, there
// from the start; squiggles, hovers and completions come a second or two after the first focus.
let wantLanguageService = () => {};
const languageServiceWanted = new Promise<void>((resolve) => (wantLanguageService = resolve));
let awake = false;

/** Starts the language service the first time the learner focuses, points at or edits `editor`. */
export function wakeLanguageServiceOn(editor: monaco.editor.ICodeEditor): void {
  if (awake) return;
  const listeners = [editor.onDidFocusEditorWidget(wake), editor.onMouseMove(wake), editor.onDidChangeModelContent(wake)];
  function wake(): void {
    for (const listener of listeners) listener.dispose();
    awake = true;
    wantLanguageService();
  }
}

/** `/src/protocol/framing/index.ts` → `file:///node_modules/@protocol/framing/index.ts`. */
export function protocolUri(path: string): string {
  return PROTOCOL_ROOT + path.replace(/^\/?src\/protocol\//, '');
}

/**
 * Where the learner's file lives for TypeScript: beside the reference module it stands for, so
 * its relative imports resolve to the same modules as in the test runner.
 */
export function learnerUri(exercise: Exercise): string {
  const entry = exercise.meta.solutionModule ?? exercise.meta.solution[0] ?? '';
  const folder = entry.replace(/^src\/protocol\//, '').split('/').slice(0, -1).join('/');
  return `${LEARNER_ROOT}${exercise.meta.id}/${folder === '' ? '' : `${folder}/`}${exercise.meta.learnerFile}`;
}

/** The model of an exercise's learner file, created on first use. */
export function learnerModel(exercise: Exercise, initialCode: string): monaco.editor.ITextModel {
  const uri = monaco.Uri.parse(learnerUri(exercise));
  return monaco.editor.getModel(uri) ?? monaco.editor.createModel(initialCode, 'typescript', uri);
}

/** A read-only view of a reference file, at the same path as its extra library. */
export function referenceModel(path: string, source: string): monaco.editor.ITextModel {
  const uri = monaco.Uri.parse(protocolUri(path));
  const existing = monaco.editor.getModel(uri);
  if (existing) {
    if (existing.getValue() !== source) existing.setValue(source);
    return existing;
  }
  return monaco.editor.createModel(source, 'typescript', uri);
}

export { monaco };
