// The Chapter loop's components rendered to HTML in Node (no DOM): what they show for given data.

import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../app/i18n/testing.ts';
import type { Arrow } from '../../app/protocol/stepper-records.ts';
import { localToolRows } from '../../app/chapter-loop/agent-registry.ts';
import { MergeReportView } from './MergeReportView.tsx';
import { RegistryTable } from './RegistryTable.tsx';
import { TranscriptView } from './TranscriptView.tsx';

function render(element: ReactElement, lng: 'en' | 'zh-CN' = 'en'): string {
  const i18n = createTestI18n(lng);
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}

const all = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1]);

const arrow = (seq: number, direction: 'c2s' | 's2c', kind: Arrow['kind'], id: number): Arrow => ({
  seq, direction, kind, method: 'tools/call', id, value: null, detail: null, frame: { offset: 0, length: 10 }, chunks: [0], t: null, arrivedAt: 0, drawnAt: 0, aroundClient: false, exit: null,
});

describe('the registry table', () => {
  it('shows every tool with its origin and tier, remote ones with server and remote name', () => {
    const rows = [...localToolRows(), { name: 'mcp__echo__add', origin: { kind: 'mcp' as const, server: 'echo', remoteName: 'add' }, tier: 'auto' as const, description: 'Add two numbers.' }];
    const html = render(<RegistryTable rows={rows} />);
    expect(all(html, /data-name="([^"]+)"/g)).toEqual(['get_time', 'get_weather', 'add', 'write_note', 'delete_file', 'mcp__echo__add']);
    expect(all(html, /data-tier="([^"]+)"/g)).toEqual(['auto', 'auto', 'auto', 'suggest', 'approve', 'auto']);
    expect(html).toContain('MCP server echo, remote name add');
    expect(render(<RegistryTable rows={rows} />, 'zh-CN')).toContain('MCP 服务器 echo，远程名 add');
  });
});

describe('the merge report', () => {
  it('shows a refusal with the learner line and the clash hint', () => {
    const html = render(<MergeReportView report={{ code: 'learner', prefix: '', ok: false, count: null, error: { name: 'DuplicateToolError', message: 'already registered', line: 12, code: null }, problems: [], listed: ['echo', 'add'] }} />);
    expect(html).toContain('Your code threw (line 12): DuplicateToolError: already registered');
    expect(html).toContain('switch the prefix on');
  });

  it('calls a silent skip the bug', () => {
    const html = render(<MergeReportView report={{ code: 'learner', prefix: '', ok: true, count: 4, error: null, problems: [{ kind: 'skipped', remoteName: 'add' }], listed: ['add'] }} />);
    expect(html).toContain('data-testid="merge-problems"');
    expect(html).toContain('add was listed by the server but is not in the registry');
  });
});

describe('the transcript', () => {
  it('links a remote call to its own request and response, and explains an exception', () => {
    const html = render(
      <TranscriptView
        transcript={[
          { type: 'user', text: 'hi' },
          { type: 'call', call: 1, tool: 'fail', server: 'echo', name: 'mcp__echo__fail', origin: { kind: 'mcp', server: 'echo', remoteName: 'fail' }, tier: 'auto', args: { message: 'x' } },
          { type: 'decision', call: 1, decision: 'auto' },
          { type: 'observation', call: 1, kind: 'exception', text: 'Tool "mcp__echo__fail" failed: boom' },
          { type: 'final', text: 'done' },
        ]}
        windows={[{ call: 1, name: 'mcp__echo__fail', firstSeq: 5, endSeq: 7 }]}
        arrows={[arrow(4, 'c2s', 'request', 2), arrow(5, 'c2s', 'request', 3), arrow(6, 's2c', 'error-response', 3), arrow(7, 's2c', 'response', 2)]}
        onInspect={() => {}}
        onShowInDiagram={() => {}}
      />,
    );
    expect(all(html, /data-testid="inspect-call-frame"[^>]*data-direction="(\w+)"/g)).toEqual(['c2s', 's2c']);
    expect(all(html, /data-seq="(\d+)" data-testid="inspect-call-frame"/g)).toEqual(['5', '6']);
    expect(html).toContain('Inspect error response #3');
    expect(html).toContain('worse for the model than isError');
    expect(html).toContain('Show in diagram');
  });
});
