// The same message in both stdio framings, byte for byte, with the fact stated plainly: real MCP
// clients speak NDJSON on stdio; the chapter's Content-Length header comes from LSP.

import { useMemo, useState } from 'react';
import { DEFAULT_CLIENT_INFO } from '../../protocol/client.ts';
import { FRAMING_NAMES, getFraming } from '../../protocol/framing/index.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import { encodeRequest, encodeResult } from '../../protocol/jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from '../../protocol/mcp.ts';
import { useStore } from '../hooks/use-store.ts';
import { frameLayout } from '../../protocol/inspect/byte-fields.ts';
import { HexView } from './HexView.tsx';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { ECHO_TEXT } from '../../app/protocol/step-plan.ts';
import { useProtocolText } from './use-protocol-text.ts';
import { utf8Groups } from '../../protocol/inspect/utf8-groups.ts';

const MESSAGES = {
  initialize: encodeRequest(0, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: DEFAULT_CLIENT_INFO }),
  call: encodeRequest(2, 'tools/call', { name: 'echo', arguments: { text: ECHO_TEXT } }),
  result: encodeResult(2, { content: [{ type: 'text', text: ECHO_TEXT }], isError: false }),
} as const;
type MessageName = keyof typeof MESSAGES;

export function FramingCompare() {
  const t = useProtocolText();
  const { session, chooseFraming } = useProtocolServices();
  const { framing: current } = useStore(session);
  const [name, setName] = useState<MessageName>('call');

  return (
    <section className="framing-compare" aria-labelledby="framing-compare-heading" data-testid="framing-compare">
      <h3 id="framing-compare-heading">{t('compare.heading')}</h3>
      <p className="framing-compare__fact">
        <strong>{t('compare.fact')}</strong>
      </p>
      <label className="field">
        <span>{t('compare.message')}</span>
        <select value={name} onChange={(event) => setName(event.target.value as MessageName)}>
          {(Object.keys(MESSAGES) as MessageName[]).map((key) => (
            <option key={key} value={key}>
              {t(`compare.messages.${key}`)}
            </option>
          ))}
        </select>
      </label>
      <div className="framing-compare__columns">
        {FRAMING_NAMES.map((framing) => (
          <FramingColumn key={framing} framing={framing} message={MESSAGES[name]} current={current === framing} onUse={() => void chooseFraming(framing)} />
        ))}
      </div>
      <p className="hint">{t('compare.current', { framing: current === 'ndjson' ? 'NDJSON' : 'Content-Length' })}</p>
    </section>
  );
}

function FramingColumn({ framing, message, current, onUse }: { framing: FramingName; message: unknown; current: boolean; onUse: () => void }) {
  const t = useProtocolText();
  const bytes = useMemo(() => getFraming(framing).encode(message), [framing, message]);
  const layout = useMemo(() => frameLayout(bytes, framing), [bytes, framing]);
  const groups = useMemo(() => utf8Groups(bytes), [bytes]);
  const body = layout.body ? layout.body.end - layout.body.start : 0;
  const label = t(framing === 'ndjson' ? 'compare.ndjson' : 'compare.contentLength');
  return (
    <div className={`framing-column${current ? ' is-current' : ''}`} data-framing={framing}>
      <h4>{label}</h4>
      <HexView bytes={bytes} fields={layout.fields} groups={groups} label={label} offsetLabel={t('inspector.offset')} />
      <p className="mono" data-testid={`framing-total-${framing}`}>
        {t('compare.total', { total: bytes.length, body, framing: bytes.length - body })}
      </p>
      <button type="button" disabled={current} onClick={onUse}>
        {t('compare.use', { framing: framing === 'ndjson' ? 'NDJSON' : 'Content-Length' })}
      </button>
    </div>
  );
}
