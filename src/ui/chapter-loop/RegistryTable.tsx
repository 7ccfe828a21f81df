// The registry as a table: name, where each tool came from, its risk tier, its description.
// Updates when a merge adds remote tools (or leaves the local ones alone after a refusal).

import { memo } from 'react';
import type { RiskTier } from '../../protocol/registry.ts';
import { originText } from '../../app/chapter-loop/describe.ts';
import { useAgentText } from './use-chapter-loop-text.ts';
import type { ToolRow } from '../../sandbox/tool-table.ts';
import { CHAPTER_TOOL_NAMES } from '../../sandbox/local-tools.ts';
import type { Resources } from '../../app/i18n/resources.ts';

const TIERS: readonly RiskTier[] = ['auto', 'suggest', 'approve'];

type LocalName = keyof Resources['chapter-loop']['table']['localDescriptions'];
/** A local tool of the chapter's table: its description is shown in the page's language (a remote tool's is the server's own words). */
const isLocalName = (row: ToolRow): row is ToolRow & { name: LocalName } => row.origin.kind === 'local' && (CHAPTER_TOOL_NAMES as readonly string[]).includes(row.name);

export const RegistryTable = memo(function RegistryTable({ rows }: { rows: readonly ToolRow[] }) {
  const t = useAgentText();
  return (
    <section className="agent-registry" aria-labelledby="agent-registry-heading">
      <h3 id="agent-registry-heading">{t('table.heading')}</h3>
      <div className="agent-table-scroll">
        <table className="agent-table" data-testid="agent-registry">
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.name')}</th>
              <th scope="col">{t('table.origin')}</th>
              <th scope="col">{t('table.tier')}</th>
              <th scope="col">{t('table.description')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name} data-name={row.name} data-origin={row.origin.kind} data-tier={row.tier} className={`agent-row agent-row--${row.origin.kind}`}>
                <th scope="row" className="mono">
                  {row.name}
                </th>
                <td>{originText(t, row.origin)}</td>
                <td>
                  <span className={`tier tier--${row.tier}`}>{TIERS.includes(row.tier) ? t(`table.tiers.${row.tier}`) : String(row.tier)}</span>
                </td>
                <td>{isLocalName(row) ? t(`table.localDescriptions.${row.name}`) : row.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="agent-legend hint">
        {TIERS.map((tier) => (
          <li key={tier}>{t(`table.legend.${tier}`)}</li>
        ))}
      </ul>
    </section>
  );
});
