import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { decodeFollowMessage, FOLLOW_PROTOCOL } from '../../app/presenter/follow-message.ts';
import { httpFollowStateOf, type HttpFollowState } from '../../app/presenter/http-follow.ts';
import { HttpSessionStore } from '../../app/protocol/http-session-store.ts';
import { all, renderHtml } from '../testing/render.tsx';
import FollowHttpStage from './FollowHttpStage.tsx';

// The follow view draws the HTTP stepper from the broadcast alone: render it from a real session's
// state after the same clone-and-check a BroadcastChannel message goes through, no services around it.
let store: HttpSessionStore;
const received = (state: HttpFollowState): HttpFollowState => {
  const message = decodeFollowMessage(structuredClone({ type: 'http-state', protocol: FOLLOW_PROTOCOL, presenter: 'p', state }));
  if (message?.type !== 'http-state') throw new Error('the real state did not pass the check');
  return message.state;
};

beforeAll(async () => {
  store = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
  await store.step();
  await store.step();
}, 20_000);
afterAll(() => store.restart());

describe('the follow view of the HTTP stepper', () => {
  it('draws a pair of arrows per connection, what the client holds, and what comes next', () => {
    const html = renderHtml(<FollowHttpStage state={received(httpFollowStateOf(store.getSnapshot(), null, 'en'))} left={false} />);
    const exchanges = store.getSnapshot().exchanges;
    expect(exchanges.length).toBeGreaterThanOrEqual(2);
    expect(all(html, /data-testid="http-exchange"/g)).toHaveLength(exchanges.length);
    expect(all(html, /data-testid="http-arrow"/g)).toHaveLength(2 * exchanges.length);
    expect(html).toContain('data-request="POST initialize"');
    expect(html).toContain('data-request="POST notifications/initialized"');
    expect(html).toContain('Step 2 of 5');
    expect(html).toContain('data-step="initialized"');
    expect(html).toContain('Next: GET');
    expect(html).toContain(store.getSnapshot().holds.sessionId!);
    expect(html).not.toContain('data-testid="follow-frame"');
  });

  it('shows the connection open on the presenter’s screen in the HTTP inspector, in the presenter’s language', () => {
    const conn = store.getSnapshot().exchanges[0]!.conn;
    const html = renderHtml(<FollowHttpStage state={received(httpFollowStateOf(store.getSnapshot(), conn, 'zh-CN'))} left={true} />);
    expect(html).toContain(`data-conn="${conn}"`);
    expect(html).toContain('data-testid="http-inspector"');
    expect(html).toContain('data-testid="follow-frame"');
    expect(html).toContain('The presenter’s page has closed.');
  });
});
