// The Chapter loop's era choice: the connection speaks the handshake (exercise 3's McpClient) or
// 2026-07-28 (the dual-era client, pinned). The merge and the turn are the same in both.

import { useStore } from '../hooks/use-store.ts';
import type { LoopEra } from '../../app/chapter-loop/chapter-loop-store.ts';
import { useEraText } from '../protocol/use-era-text.ts';
import { useChapterLoopStore } from './chapter-loop-context.ts';

const LOOP_ERAS: readonly LoopEra[] = ['handshake', 'modern'];

export function ChapterLoopEra({ busy }: { busy: boolean }) {
  const t = useEraText();
  const store = useChapterLoopStore();
  const { era } = useStore(store);
  return (
    <fieldset className="agent-options" disabled={busy} data-testid="loop-era">
      <legend>{t('loop.label')}</legend>
      {LOOP_ERAS.map((candidate) => (
        <label key={candidate}>
          <input type="radio" name="agent-era" checked={era === candidate} onChange={() => store.setEra(candidate)} /> {t(`loop.${candidate}`)}
        </label>
      ))}
      <p className="hint">{t('loop.hint')}</p>
    </fieldset>
  );
}
