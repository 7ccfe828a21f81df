// Save the inspected frame as a file: hex (16 bytes a line, `xxd -r -p` reads it back) or the binary.

import { FRAME_FILE_FORMATS, frameFile, type FrameFileFormat } from '../../app/trace/frame-file.ts';
import type { InspectTarget } from '../../app/protocol/inspect-target.ts';
import { useProtocolText } from './use-protocol-text.ts';
// Static: the page's first chunk has it anyway (share links, progress files use it).
import { downloadFile } from '../../app/progress-transfer/browser-file.ts';

const LABEL = { hex: 'inspector.saveHex', binary: 'inspector.saveBinary' } as const satisfies Record<FrameFileFormat, string>;

export function FrameSaveBar({ target }: { target: InspectTarget }) {
  const t = useProtocolText();
  const save = async (format: FrameFileFormat) => {
    const file = frameFile(target.bytes, format, target.direction, target.streamOffset);
    // Loaded on the first save: the inspector is on the first paint, saving is not.
    downloadFile(file.name, file.data as BlobPart, file.type);
  };
  return (
    <div className="copy-bar">
      <span>{t('inspector.saveFrame')}</span>
      {FRAME_FILE_FORMATS.map((format) => (
        <button key={format} type="button" onClick={() => void save(format)} data-testid={`frame-save-${format}`}>
          {t(LABEL[format])}
        </button>
      ))}
    </div>
  );
}
