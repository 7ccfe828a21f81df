import { describe, expect, it } from 'vitest';
import { INITIAL_OFFLINE_STATE, nextOfflineState, offlineSupport, type OfflineEvent, type OfflineState } from './offline-state.ts';

const run = (...events: OfflineEvent[]): OfflineState => events.reduce(nextOfflineState, INITIAL_OFFLINE_STATE);

describe('nextOfflineState', () => {
  it('first visit: saving, then ready once the worker controls the page', () => {
    expect(run({ type: 'saving' }).status).toBe('saving');
    expect(run({ type: 'saving' }, { type: 'controlled', isUpdate: false })).toEqual({
      status: 'ready',
      unsupportedReason: null,
      error: null,
      updateReady: false,
    });
  });

  it('a newer build taking over an open page is ready and asks for a reload', () => {
    const state = run({ type: 'controlled', isUpdate: false }, { type: 'saving' }, { type: 'controlled', isUpdate: true });
    expect(state.status).toBe('ready');
    expect(state.updateReady).toBe(true);
  });

  it('stays ready while an update installs or an update check fails', () => {
    const ready = run({ type: 'controlled', isUpdate: false });
    expect(nextOfflineState(ready, { type: 'saving' })).toBe(ready);
    expect(nextOfflineState(ready, { type: 'failed', message: 'network' })).toBe(ready);
  });

  it('reports a failed registration with its message', () => {
    expect(run({ type: 'failed', message: 'SecurityError: bad MIME type' })).toMatchObject({ status: 'error', error: 'SecurityError: bad MIME type' });
  });

  it('records why there is no worker', () => {
    expect(run({ type: 'unsupported', reason: 'insecure-context' })).toMatchObject({ status: 'unsupported', unsupportedReason: 'insecure-context' });
    expect(run({ type: 'development' }).status).toBe('development');
  });
});

describe('offlineSupport', () => {
  it('registers only in a production build on a secure origin with the API', () => {
    expect(offlineSupport({ production: true, isSecureContext: true, hasServiceWorker: true })).toBeNull();
    expect(offlineSupport({ production: false, isSecureContext: true, hasServiceWorker: true })).toEqual({ type: 'development' });
    expect(offlineSupport({ production: true, isSecureContext: false, hasServiceWorker: false })).toEqual({ type: 'unsupported', reason: 'insecure-context' });
    expect(offlineSupport({ production: true, isSecureContext: true, hasServiceWorker: false })).toEqual({ type: 'unsupported', reason: 'no-service-worker' });
  });
});
