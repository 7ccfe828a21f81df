// The Chapter loop view (#chapter-loop): connect and merge, the registry table, the scripted turn with
// its approval gate, the transcript linked to its frames, the diagram, and the script editor.
// State lives in ChapterLoopStore; this only renders it and forwards clicks.

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { useProtocolServices } from '../protocol/ProtocolServicesProvider.tsx';
import { AGENT_PREFIX } from '../../app/chapter-loop/agent-registry.ts';
import { agentStatus } from '../../app/chapter-loop/agent-status.ts';
import { defaultScript, parseScript, scriptToText, type AgentScript } from '../../app/chapter-loop/agent-script.ts';
import { createChapterLoopStore } from '../../app/chapter-loop/chapter-loop-services.ts';
import { ChapterLoopStoreContext, useChapterLoopStore } from './chapter-loop-context.ts';
import type { ChapterLoopTexts } from '../../app/chapter-loop/chapter-loop-store.ts';
import { ApprovalDialog } from './ApprovalDialog.tsx';
import { ChapterLoopEra } from './ChapterLoopEra.tsx';
import { MergeReportView } from './MergeReportView.tsx';
import { RegistryTable } from './RegistryTable.tsx';
import { browserScriptStorage, clearScriptText, loadScriptText, saveScriptText } from '../../app/chapter-loop/script-storage.ts';
import { ScriptEditor } from './ScriptEditor.tsx';
import { useAgentText } from './use-chapter-loop-text.ts';
import { TranscriptView } from './TranscriptView.tsx';
import { TurnDiagram } from './TurnDiagram.tsx';
import { LEARNER_EXERCISES } from '../../app/services/protocol-services.ts';
import { UnfinishedExerciseNote } from '../exercise/UnfinishedExerciseNote.tsx';
import { StationBar } from '../path/StationBar.tsx';
import { CHAPTER_LOOP_YOURS_HASH, CHECK_SERVER_HASH } from '../../app/router.ts';
import { useLandOnHash } from '../hooks/use-land-on-hash.ts';
import './chapter-loop.css';

export interface ChapterLoopViewProps {
  /** Mounted at the bottom of the view: App puts the SDK checks panel (src/ui/sdk-checks/) here. */
  children?: ReactNode;
}

/** The view with its own store, made once from the protocol view's services. */
export function ChapterLoopView({ children }: ChapterLoopViewProps) {
  const services = useProtocolServices();
  const [store] = useState(() => createChapterLoopStore(services));
  return (
    <ChapterLoopStoreContext.Provider value={store}>
      <ChapterLoopPanel>{children}</ChapterLoopPanel>
    </ChapterLoopStoreContext.Provider>
  );
}

function ChapterLoopPanel({ children }: ChapterLoopViewProps) {
  const t = useAgentText();
  const { i18n } = useTranslation();
  const store = useChapterLoopStore();
  const { ui } = useProtocolServices();
  const state = useStore(store);
  const storage = useMemo(() => browserScriptStorage(), []);
  const [text, setText] = useState(() => loadScriptText(storage) ?? scriptToText(defaultScript(i18n.language)));
  const [saved, setSaved] = useState(true);
  // Until the learner edits it, the script is the default turn in the page's language.
  const edited = useRef(loadScriptText(storage) !== null);
  useEffect(() => {
    if (!edited.current) setText(scriptToText(defaultScript(i18n.language)));
  }, [i18n.language]);
  const [highlight, setHighlight] = useState<{ call: number; at: number } | null>(null);
  const parsed = useMemo(() => parseScript(text), [text]);
  const busy = state.phase === 'connecting' || state.phase === 'merging' || state.phase === 'running' || state.phase === 'approval';

  const changeText = (next: string) => {
    edited.current = true;
    setText(next);
    setSaved(saveScriptText(storage, next));
  };
  const addFail = () => {
    if (!parsed.ok) return;
    const script: AgentScript = { ...parsed.script, turns: [...parsed.script.turns, { calls: [{ tool: 'fail', server: 'echo', args: { message: 'the disk is full' } }] }] };
    changeText(scriptToText(script));
  };
  const reset = () => {
    clearScriptText(storage);
    edited.current = false;
    setText(scriptToText(defaultScript(i18n.language)));
    setSaved(true);
  };

  const texts: ChapterLoopTexts = {
    refusal: (request) => t('model.refusal', { name: request.name, args: JSON.stringify(request.args) }),
    notRegistered: (call) => t('model.notRegistered', { tool: call.tool, server: call.server }),
  };
  const inspect = useCallback(
    (seq: number) => {
      const target = store.inspectTarget(seq);
      if (target) ui.openInspector(target);
    },
    [store, ui],
  );
  const showInDiagram = useCallback((call: number) => {
    setHighlight((previous) => ({ call, at: (previous?.at ?? 0) + 1 }));
    document.getElementById('agent-diagram')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, []);

  // The two "See it live" links into this view: exercise 4's lands on Check my server (at the
  // bottom), exercise 5's at the top with the learner's registerMcpTools chosen for the merge.
  const sdkSlot = useRef<HTMLElement>(null);
  const view = useRef<HTMLElement>(null);
  useLandOnHash(sdkSlot, (hash) => hash === CHECK_SERVER_HASH);
  useLandOnHash(view, (hash) => hash === CHAPTER_LOOP_YOURS_HASH, true);
  useEffect(() => {
    const follow = () => {
      if (window.location.hash === CHAPTER_LOOP_YOURS_HASH) store.setCode('learner');
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [store]);

  const status = agentStatus(state);
  const canRun = !busy && state.phase === 'ready' && parsed.ok;

  return (
    <section ref={view} className="pane agent-view" id="agent-view" aria-labelledby="agent-view-heading">
      <StationBar />
      <h2 id="agent-view-heading">{t('view.heading')}</h2>
      <p className="hint">{t('view.intro')}</p>

      <section className="agent-merge" aria-labelledby="agent-merge-heading">
        <h3 id="agent-merge-heading">{t('merge.heading')}</h3>
        <fieldset className="agent-options" disabled={busy}>
          <legend>{t('merge.code')}</legend>
          <label>
            <input type="radio" name="agent-code" checked={state.code === 'reference'} onChange={() => store.setCode('reference')} /> {t('merge.reference')}
          </label>
          <label>
            <input type="radio" name="agent-code" checked={state.code === 'learner'} onChange={() => store.setCode('learner')} /> {t('merge.learner')}
          </label>
          {state.code === 'learner' && <p className="hint">{t('merge.learnerNote')}</p>}
          {state.code === 'learner' && <UnfinishedExerciseNote exerciseId={LEARNER_EXERCISES.register} />}
        </fieldset>
        <ChapterLoopEra busy={busy} />
        <div className="agent-options">
          <label>
            <input type="checkbox" checked={state.usePrefix} disabled={busy} onChange={(event) => store.setUsePrefix(event.target.checked)} /> {t('merge.prefix', { prefix: AGENT_PREFIX })}
          </label>
          <label>
            <input type="checkbox" checked={state.rpcErrorFault} disabled={busy} onChange={(event) => store.setRpcErrorFault(event.target.checked)} /> {t('merge.rpcFault')}
          </label>
        </div>
        <div className="button-row">
          <button type="button" className="primary" disabled={busy} onClick={() => void store.connectAndMerge()}>
            {t('merge.connect')}
          </button>
        </div>
        <p className={status.tone === 'info' ? 'hint' : `notice is-${status.tone}`} role="status" data-testid="agent-status" data-phase={state.phase}>
          {t(status.key, status.values)}
        </p>
        {state.merge && <MergeReportView report={state.merge} />}
      </section>

      <RegistryTable rows={state.tools} />

      <section className="agent-turn" aria-labelledby="agent-turn-heading">
        <h3 id="agent-turn-heading">{t('turn.heading')}</h3>
        <p className="hint">{t('turn.intro')}</p>
        <div className="button-row">
          <button type="button" className="primary" disabled={!canRun} onClick={() => parsed.ok && void store.runTurn(parsed.script, texts)}>
            {t('turn.run')}
          </button>
        </div>
        {!busy && state.phase !== 'ready' && <p className="hint">{t('turn.needsConnection')}</p>}
        {!parsed.ok && <p className="hint">{t('turn.scriptInvalid')}</p>}
      </section>

      <TranscriptView transcript={state.transcript} windows={state.windows} arrows={state.arrows} onInspect={inspect} onShowInDiagram={showInDiagram} />
      <TurnDiagram arrows={state.arrows} windows={state.windows} highlight={highlight} onInspect={inspect} />
      <ScriptEditor text={text} errors={parsed.ok ? [] : parsed.errors} saved={saved} onChange={changeText} onAddFail={addFail} onReset={reset} />
      <ApprovalDialog request={state.approval} onApprove={() => store.approve()} onDeny={() => store.deny()} />

      {/* SDK checks slot: App mounts <SdkChecksPanel /> (src/ui/sdk-checks/) here as children. */}
      {children && (
        <section ref={sdkSlot} className="agent-sdk-slot" aria-label={t('sdk.slot')}>
          {children}
        </section>
      )}
    </section>
  );
}
