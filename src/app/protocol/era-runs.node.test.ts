// The era switch's runs, end to end against the real echo session (every era of it) behind a real
// tap wire: the stepper's records are the frames that crossed, read back from the bytes.

import { afterEach, describe, expect, it } from 'vitest';
import { createTestI18n } from '../i18n/testing.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import { EraDriver } from './era-driver.ts';
import { eraCardConfig, FUTURE_VERSION, readEraCard } from './era-cards.ts';
import { eraConfig, eraOfConfig, MODERN_PLAN, PROBE_PLAN } from './era-runs.ts';
import { LazyEraDriver } from './lazy-era-driver.ts';
import { ReferenceDriver, referenceRegisterRunner } from './reference-driver.ts';
import { StepperStore, type RunConfig } from './stepper-store.ts';
import type { StepRecord } from './stepper-records.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';

createTestI18n('en');

const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
});

function makeStepper(lazy = false) {
  const port = inProcessServerPort();
  const stepper = new StepperStore({
    server: port,
    createDriver: (_kind: DriverKind, config: RunConfig) => (config.eraClient ? (lazy ? new LazyEraDriver(config.eraClient) : new EraDriver(config.eraClient)) : new ReferenceDriver()),
    createRegisterRunner: () => referenceRegisterRunner,
    autoDelayMs: 0,
  });
  stores.push(stepper);
  return { stepper, port };
}

const arrowsOf = (records: readonly StepRecord[]) =>
  records.map((record) => record.arrows.map((arrow) => `${arrow.direction} ${arrow.kind} ${arrow.method ?? ''}${arrow.id === null ? '' : ` #${String(arrow.id)}`}`.trim()));
const notesOf = (records: readonly StepRecord[]) => records.flatMap((record) => record.notes.map((note) => note.detail));

async function runEra(config: RunConfig, lazy = false) {
  const { stepper, port } = makeStepper(lazy);
  stepper.load(config);
  await stepper.runToEnd();
  return { state: stepper.getSnapshot(), port, stepper };
}

describe('era runs on the stepper', () => {
  it('2026-07-28: server/discover, tools/list, tools/call, each request with the _meta envelope and each result with resultType', async () => {
    const { state, port } = await runEra(eraConfig('modern'));
    expect(state.status).toEqual({ status: 'done' });
    expect(port.started).toEqual([{ framing: 'ndjson', faults: [] }]);
    expect(arrowsOf(state.records)).toEqual([
      ['c2s request server/discover #0'],
      ['s2c response server/discover #0'],
      ['c2s request tools/list #1'],
      ['s2c response tools/list #1'],
      ['c2s request tools/call #2'],
      ['s2c response tools/call #2'],
      ['c2s eof'],
      ['s2c exit'],
    ]);
    const arrows = state.records.flatMap((record) => record.arrows);
    for (const request of arrows.filter((arrow) => arrow.kind === 'request')) {
      expect(request.value).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    }
    for (const response of arrows.filter((arrow) => arrow.kind === 'response')) {
      expect(response.value).toMatchObject({ result: { resultType: 'complete' } });
    }
    // No initialize crossed the wire, and the note does not say one did.
    expect(notesOf(state.records)).toContain('connect() → modern era, 2026-07-28 — server/discover offered 2026-07-28');
    expect(notesOf(state.records).join('\n')).not.toContain('initialize');
    expect(state.records.length).toBe(MODERN_PLAN.length);
    // The client has no handshake states: ready once server/discover is answered, closed at the end.
    expect(state.records.map((record) => record.clientState)).toEqual(['new', 'ready', 'ready', 'ready', 'ready', 'ready', 'closed', 'closed']);
    expect(state.records[1]!.transition).toMatchObject({ from: 'new', to: 'ready' });
  });

  it('probe against the dual-era server: stays modern, and the fallback step says no handshake was needed', async () => {
    const { state } = await runEra(eraConfig('probe'), true);
    expect(state.status).toEqual({ status: 'done' });
    expect(arrowsOf(state.records).slice(0, 4)).toEqual([['c2s request server/discover #0'], ['s2c response server/discover #0'], [], ['c2s request tools/list #1']]);
    expect(state.records[2]).toMatchObject({ outcome: 'skipped' });
    expect(state.records[2]!.notes.map((note) => note.detail)).toEqual(['the server answered server/discover, so no fallback handshake is needed']);
  });

  it('probe against a legacy-only server: the error, then the fallback handshake on the same pipe, then the handshake era', async () => {
    const { state, port } = await runEra(eraConfig('probe', 'legacy'));
    expect(port.started).toEqual([{ framing: 'ndjson', faults: [], era: 'legacy' }]);
    expect(state.status).toEqual({ status: 'done' });
    expect(arrowsOf(state.records)).toEqual([
      ['c2s request server/discover #0'],
      ['s2c error-response server/discover #0', 'c2s request initialize #1'],
      ['s2c response initialize #1', 'c2s notification notifications/initialized'],
      ['c2s request tools/list #2'],
      ['s2c response tools/list #2'],
      ['c2s request tools/call #3'],
      ['s2c response tools/call #3'],
      ['c2s eof'],
      ['s2c exit'],
    ]);
    // The legacy requests carry no envelope: the client fell back to exercise 3's McpClient.
    const list = state.records[3]!.arrows[0]!.value as { params?: { _meta?: unknown } };
    expect(list.params?._meta).toBeUndefined();
    expect(notesOf(state.records).find((note) => note.startsWith('connect() →'))).toMatch(/^connect\(\) → legacy era, 2025-11-25 — fell back to the handshake/);
    expect(state.records.length).toBe(PROBE_PLAN.length);
  });

  it('the handshake era against the dual-era server is the chapter stepper, unchanged', async () => {
    const { state } = await runEra(eraConfig('handshake'));
    expect(state.status).toEqual({ status: 'done' });
    expect(arrowsOf(state.records)[0]).toEqual(['c2s request initialize #0']);
    expect(eraOfConfig(state.config)).toEqual({ choice: 'handshake', serverEra: 'dual' });
  });

  it('2026-07-28 pinned against a legacy-only server fails loudly instead of falling back', async () => {
    const { state } = await runEra({ ...eraConfig('modern', 'legacy'), timeouts: { receiveMs: 1000, sendMs: 1000 } });
    expect(notesOf(state.records).find((note) => note.includes('no fallback when pinned'))).toBeDefined();
  });
});

describe('era failure cards', () => {
  it('legacy client against a 2026-07-28-only server: -32022 listing only versions it cannot speak', async () => {
    const { state } = await runEra(eraCardConfig('legacy-client'));
    const verdict = readEraCard('legacy-client', state.records);
    expect(verdict).toMatchObject({ kind: 'dead-end', supported: ['2026-07-28'], requested: '2025-11-25' });
    expect(notesOf(state.records).some((note) => /^initialize\(\): .*-32022|Unsupported protocol version/i.test(note))).toBe(true);
    // The same reading on a dual-era server shows nothing: initialize is simply answered.
    const dual = await runEra({ ...eraCardConfig('legacy-client'), serverEra: undefined });
    expect(readEraCard('legacy-client', dual.state.records)).toEqual({ kind: 'not-shown' });
  });

  it('version mismatch: -32022 on server/discover, then the probe again with a version from data.supported', async () => {
    const { state } = await runEra(eraCardConfig('version-retry'));
    expect(arrowsOf(state.records).slice(0, 3)).toEqual([['c2s request server/discover #0'], ['s2c error-response server/discover #0', 'c2s request server/discover #1'], ['s2c response server/discover #1']]);
    const verdict = readEraCard('version-retry', state.records);
    expect(verdict).toMatchObject({ kind: 'retried', requested: FUTURE_VERSION, retriedWith: '2026-07-28' });
    expect(verdict.kind === 'retried' && verdict.supported).toContain('2026-07-28');
    expect(state.status).toEqual({ status: 'done' });
  });
});
