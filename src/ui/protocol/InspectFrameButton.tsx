// "Inspect bytes" for one frame of a message log entry: opens the byte inspector on the frame, with
// the chunks it arrived in, read back from the log (the live one, or an opened trace's). Renders
// nothing outside the protocol services.

import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogSource } from '../hooks/log-source-context.ts';
import type { LogEntry } from '../../app/live-session/message-log.ts';
import { targetFromLog } from '../../app/protocol/log-frames.ts';
import { ProtocolServicesContext } from './ProtocolServicesProvider.tsx';

export function InspectFrameButton({ entry, frameIndex }: { entry: LogEntry; frameIndex: number }) {
  const { t } = useTranslation('live');
  const services = useContext(ProtocolServicesContext);
  const session = useLogSource();
  if (services === null || entry.type !== 'bytes') return null;
  const open = () => {
    const { log, framing } = session.getSnapshot();
    const target = targetFromLog(log, framing, entry.seq, frameIndex);
    if (target) services.ui.openInspector(target);
  };
  return (
    <button type="button" className="log-entry__inspect" onClick={open} aria-label={t('log.inspectFrame', { index: frameIndex + 1 })} data-testid="log-inspect">
      {t('log.inspect')}
    </button>
  );
}
