import { describe, expect, it } from 'vitest';
import { toggleFullscreen, type FullscreenDocument } from './fullscreen.ts';

function fakeDocument(options: { enabled?: boolean; refuse?: Error; noApi?: boolean } = {}) {
  const root = {} as FullscreenDocument['documentElement'];
  const doc = {
    fullscreenEnabled: options.enabled ?? true,
    fullscreenElement: null as Element | null,
    documentElement: root,
    async exitFullscreen() {
      doc.fullscreenElement = null;
    },
  };
  if (!options.noApi) {
    root.requestFullscreen = async () => {
      if (options.refuse) throw options.refuse;
      doc.fullscreenElement = root as unknown as Element;
    };
  }
  return doc;
}

describe('full screen toggle', () => {
  it('enters, then leaves', async () => {
    const doc = fakeDocument();
    expect(await toggleFullscreen(doc)).toEqual({ ok: true, on: true });
    expect(doc.fullscreenElement).not.toBeNull();
    expect(await toggleFullscreen(doc)).toEqual({ ok: true, on: false });
    expect(doc.fullscreenElement).toBeNull();
  });

  it('says why when the browser refuses', async () => {
    expect(await toggleFullscreen(fakeDocument({ refuse: new TypeError('Permissions check failed') }))).toEqual({ ok: false, reason: 'refused', detail: 'Permissions check failed' });
  });

  it('says when the page cannot go full screen at all', async () => {
    expect(await toggleFullscreen(fakeDocument({ enabled: false }))).toEqual({ ok: false, reason: 'unavailable' });
    expect(await toggleFullscreen(fakeDocument({ noApi: true }))).toEqual({ ok: false, reason: 'unavailable' });
  });
});
