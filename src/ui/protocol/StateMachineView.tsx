// The client's lifecycle as a small state machine: the current state lit, the transition just
// taken drawn heavier and said in words (the words are what screen readers get).

import { memo } from 'react';
import type { ClientState } from '../../protocol/client-errors.ts';
import type { StepRecord } from '../../app/protocol/stepper-records.ts';
import { useProtocolText } from './use-protocol-text.ts';

type EdgeLabel = 'initialize' | 'notify' | 'close' | 'discover';
type Edge = { from: ClientState; to: ClientState; label: EdgeLabel };

/** The handshake era's lifecycle, and the 2026-07-28 client's (no handshake: ready once it knows a version). */
const MACHINES: Record<'handshake' | 'modern', { states: readonly ClientState[]; edges: readonly Edge[] }> = {
  handshake: {
    states: ['new', 'initialized', 'ready', 'closed'],
    edges: [
      { from: 'new', to: 'initialized', label: 'initialize' },
      { from: 'initialized', to: 'ready', label: 'notify' },
      { from: 'ready', to: 'closed', label: 'close' },
    ],
  },
  modern: {
    states: ['new', 'ready', 'closed'],
    edges: [
      { from: 'new', to: 'ready', label: 'discover' },
      { from: 'ready', to: 'closed', label: 'close' },
    ],
  },
};
const NODE = { x: 14, width: 112, height: 28, gap: 30 };

export const StateMachineView = memo(function StateMachineView({ state, transition, machine = 'handshake' }: Pick<StepRecord, 'transition'> & { state: ClientState | null; machine?: 'handshake' | 'modern' }) {
  const t = useProtocolText();
  const { states: STATES, edges: EDGES } = MACHINES[machine];
  const nodeY = (name: ClientState) => 8 + STATES.indexOf(name) * (NODE.height + NODE.gap);
  const height = nodeY('closed') + NODE.height + 10;
  const isLit = (from: ClientState, to: ClientState) => transition?.from === from && transition.to === to;
  // A jump straight to closed (the server left, or close() early) has no edge of its own: draw one.
  const shortcut = transition && transition.to === 'closed' && transition.from !== 'ready' && STATES.includes(transition.from) ? transition.from : null;

  return (
    <section className="state-machine" aria-labelledby="state-machine-heading" data-testid="state-machine">
      <h4 id="state-machine-heading">{t('stateMachine.heading')}</h4>
      <svg viewBox={`0 0 300 ${height}`} width="300" height={height} aria-hidden="true">
        <defs>
          <marker id="sm-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" />
          </marker>
        </defs>
        {EDGES.map((edge) => {
          const x = NODE.x + NODE.width / 2;
          const y1 = nodeY(edge.from) + NODE.height;
          const y2 = nodeY(edge.to);
          return (
            <g key={edge.label} className={`sm-edge${isLit(edge.from, edge.to) ? ' is-lit' : ''}`}>
              <line x1={x} y1={y1 + 2} x2={x} y2={y2 - 2} markerEnd="url(#sm-arrow)" />
              <text x={x + 10} y={(y1 + y2) / 2 + 4}>
                {t(`stateMachine.edges.${edge.label}`)}
              </text>
            </g>
          );
        })}
        {machine === 'handshake' && (
          <g className={`sm-edge sm-edge--retry${transition?.from === 'new' && transition.to === 'new' ? ' is-lit' : ''}`}>
            <path d={`M ${NODE.x + NODE.width} ${nodeY('new') + 8} c 26 -8 26 20 0 12`} markerEnd="url(#sm-arrow)" fill="none" />
            <text x={NODE.x + NODE.width + 26} y={nodeY('new') + 18}>
              {t('stateMachine.edges.retry')}
            </text>
          </g>
        )}
        {shortcut && (
          <g className="sm-edge is-lit">
            <path d={`M ${NODE.x} ${nodeY(shortcut) + NODE.height / 2} c -12 0 -12 ${nodeY('closed') - nodeY(shortcut)} 0 ${nodeY('closed') - nodeY(shortcut)}`} fill="none" markerEnd="url(#sm-arrow)" />
          </g>
        )}
        {STATES.map((name) => (
          <g key={name} className={`sm-node${state === name ? ' is-current' : ''}`} data-state={name}>
            <rect x={NODE.x} y={nodeY(name)} width={NODE.width} height={NODE.height} rx={14} />
            <text x={NODE.x + NODE.width / 2} y={nodeY(name) + 18} textAnchor="middle">
              {t(`stateMachine.states.${name}`)}
              {state === name ? ' ●' : ''}
            </text>
          </g>
        ))}
      </svg>
      <ol className="state-machine__states visually-hidden">
        {STATES.map((name) => (
          <li key={name} aria-current={state === name ? 'step' : undefined}>
            {t(`stateMachine.states.${name}`)}
            {state === name ? ` (${t('stateMachine.current')})` : ''}
          </li>
        ))}
      </ol>
      <p className="state-machine__now" data-testid="state-machine-current" data-state={state ?? ''}>
        {state === null ? t('stateMachine.none') : `${t('stateMachine.current')}: ${t(`stateMachine.states.${state}`)}`}
      </p>
      {machine === 'modern' && <p className="hint">{t('stateMachine.modernNote')}</p>}
      {transition && (
        <p className="state-machine__last" data-testid="state-machine-transition">
          {t('stateMachine.last', { from: t(`stateMachine.states.${transition.from}`), to: t(`stateMachine.states.${transition.to}`) })}
          <br />
          <span className="hint">{t('stateMachine.cause', { cause: transition.cause })}</span>
        </p>
      )}
    </section>
  );
});
