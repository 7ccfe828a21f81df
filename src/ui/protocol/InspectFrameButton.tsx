// "Inspect bytes" for one frame of a message log entry: opens the byte inspector on the frame, with
// the chunks it arrived in, read back from the log (the live one, or an opened trace's). A frame
// read from a relayed HTTP connection (an HTTP trace) opens the HTTP byte inspector on that
// connection instead, as the HTTP stepper does. Renders nothing outside the protocol services.

import { useContext, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useLogSource } from '../hooks/log-source-context.ts';
import type { LogEntry } from '../../app/live-session/message-log.ts';
import type { HttpExchangeRecord } from '../../app/protocol/http-exchanges.ts';
import { targetFromLog } from '../../app/protocol/log-frames.ts';
import { exchangeOfConnection } from '../../app/trace/http-trace-exchange.ts';
import { ProtocolServicesContext } from './ProtocolServicesProvider.tsx';

// Imported, not lazy(): it is its own shared chunk either way (the log, the trace view and the HTTP
// view use it), and a lazy() import here split the first paint's chunks (+0.6 KB gz, measured).
import { HttpInspectorDialog } from './HttpInspectorDialog.tsx';

export function InspectFrameButton({ entry, frameIndex }: { entry: LogEntry; frameIndex: number }) {
  const { t } = useTranslation('live');
  const services = useContext(ProtocolServicesContext);
  const session = useLogSource();
  const [exchange, setExchange] = useState<HttpExchangeRecord | null>(null);
  // Mounted from the first opening on: closing then goes through the dialog's own close, which returns the focus.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  if (services === null || entry.type !== 'bytes') return null;
  const conn = entry.conn;
  const open = () => {
    const { log, framing } = session.getSnapshot();
    if (conn !== undefined) {
      setExchange(exchangeOfConnection(log.entries, conn));
      setDialogLoaded(true);
      return;
    }
    const target = targetFromLog(log, framing, entry.seq, frameIndex);
    if (target) services.ui.openInspector(target);
  };
  return (
    <>
      <button type="button" className="log-entry__inspect" onClick={open} aria-label={t('log.inspectFrame', { index: frameIndex + 1 })} data-testid="log-inspect">
        {t('log.inspect')}
      </button>
      {/* In a portal: the button sits in a row's heading, where a dialog does not belong. */}
      {dialogLoaded &&
        createPortal(
          <HttpInspectorDialog exchange={exchange} onClose={() => setExchange(null)} />,
          document.body,
        )}
    </>
  );
}
