import { describe, expect, it } from 'vitest';
import { PendingTable } from './PendingTable.tsx';
import { StateMachineView } from './StateMachineView.tsx';
import type { PendingRow } from '../../app/protocol/stepper-records.ts';
import { all, renderHtml } from '../testing/render.tsx';

describe('StateMachineView', () => {
  it('lights the current state and the transition just taken, and says both in words', () => {
    const html = renderHtml(<StateMachineView state="ready" transition={{ from: 'initialized', to: 'ready', cause: 'sent notifications/initialized' }} />);
    expect(all(html, /<g class="sm-node( is-current)?" data-state="(\w+)"/g)).toHaveLength(4);
    expect(html).toContain('<g class="sm-node is-current" data-state="ready">');
    expect(all(html, /<g class="sm-edge( sm-edge--retry)?( is-lit)?">/g).filter((match) => match.includes('is-lit'))).toHaveLength(1);
    expect(html).toContain('Last transition: initialized → ready');
    expect(html).toContain('<li aria-current="step">ready (current)</li>');
  });

  it('draws a jump straight to closed that has no edge of its own', () => {
    const html = renderHtml(<StateMachineView state="closed" transition={{ from: 'new', to: 'closed', cause: 'the server closed the connection' }} />);
    expect(all(html, /class="sm-edge is-lit"/g)).toHaveLength(1);
    expect(html).toContain('data-state="closed"');
  });

  it('draws the 2026-07-28 client without handshake states: new → ready → closed, no initialize edge', () => {
    const html = renderHtml(<StateMachineView machine="modern" state="closed" transition={{ from: 'ready', to: 'closed', cause: 'stdin ended' }} />);
    expect(all(html, /<g class="sm-node( is-current)?" data-state="(\w+)"/g)).toHaveLength(3);
    expect(html).not.toContain('data-state="initialized"');
    expect(html).not.toContain('initialize answered');
    expect(html).toContain('server/discover answered');
    expect(html).toContain('<g class="sm-node is-current" data-state="closed">');
  });
});

describe('PendingTable', () => {
  const row = (id: number, method: string, status: PendingRow['status'], answerOrder: number | null, outcome: PendingRow['outcome'] = null): PendingRow => ({ key: `n:${id}`, id, method, sentInStep: id, aroundClient: false, status, answeredInStep: null, answerOrder, outcome });

  it('shows each request by id with its status and the order answers came back in', () => {
    const html = renderHtml(
      <PendingTable rows={[row(1, 'tools/call', 'answered', 2, { ok: true, summary: 'slow' }), row(2, 'tools/call', 'answered', 1, { ok: true, summary: 'fast' }), row(3, 'tools/list', 'waiting', null)]} />,
    );
    expect(all(html, /data-id="(\d+)" data-status="(?:\w+)" data-order="(\d*)"/g)).toEqual(['1', '2', '3']);
    expect(all(html, /data-order="(\d*)"/g)).toEqual(['2', '1', '']);
    expect(html).toContain('answered (#1 to come back)');
    expect(html).toContain('○ waiting');
    expect(all(html, /what the call returned: <\/span>([^<]+)</g)).toEqual(['slow', 'fast']);
  });

  it('says when there is nothing yet', () => {
    expect(renderHtml(<PendingTable rows={[]} />)).toContain('No requests yet.');
  });
});
