import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceDriver, referenceRegisterRunner } from '../../app/protocol/reference-driver.ts';
import { StepperStore } from '../../app/protocol/stepper-store.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { all, renderHtml } from '../testing/render.tsx';
import { FollowStage } from './FollowApp.tsx';
import { decodeFollowMessage, FOLLOW_PROTOCOL, followStateOf, type FollowState } from '../../app/presenter/follow-message.ts';

// The follow view draws from the broadcast alone: render it from a real run's state after the
// same clone-and-check a BroadcastChannel message goes through, with no services around it.
let stepper: StepperStore;
const received = (state: FollowState): FollowState => {
  const message = decodeFollowMessage(structuredClone({ type: 'state', protocol: FOLLOW_PROTOCOL, presenter: 'p', state }));
  if (message?.type !== 'state') throw new Error('the real state did not pass the check');
  return message.state;
};

beforeAll(async () => {
  stepper = new StepperStore({ server: inProcessServerPort(), createDriver: () => new ReferenceDriver(), createRegisterRunner: () => referenceRegisterRunner, autoDelayMs: 0 });
  await stepper.runToEnd();
}, 20_000);
afterAll(() => stepper.dispose());

describe('the follow view', () => {
  it('draws every arrow, the state machine and the pending table of the steps shown', () => {
    const html = renderHtml(<FollowStage state={received(followStateOf(stepper.getSnapshot(), null, 'en'))} left={false} />);
    expect(all(html, /data-testid="diagram-arrow"/g)).toHaveLength(9);
    expect(html).toContain('Step 9 of 9');
    expect(html).toContain('data-testid="state-machine"');
    expect(all(html, /class="pending-row pending-row--answered"/g)).toHaveLength(3);
    expect(html).not.toContain('data-testid="follow-frame"');
  });

  it('shows only the steps the presenter shows, and what comes next', () => {
    const html = renderHtml(<FollowStage state={received(followStateOf({ ...stepper.getSnapshot(), cursor: 4 }, null, 'en'))} left={false} />);
    // initialize, its answer, notifications/initialized, tools/list: one arrow each.
    expect(all(html, /data-testid="diagram-arrow"/g)).toHaveLength(4);
    expect(html).toContain('Step 4 of 9');
    expect(html).toContain('Next: read the answer');
  });

  it('shows the frame open on the presenter’s screen, without the replay that needs a reader', () => {
    const call = stepper.getSnapshot().records.flatMap((record) => record.arrows).find((arrow) => arrow.method === 'tools/call' && arrow.kind === 'request')!;
    const html = renderHtml(<FollowStage state={received(followStateOf(stepper.getSnapshot(), stepper.inspect(call.seq), 'en'))} left={true} />);
    expect(html).toContain('data-testid="follow-frame"');
    expect(html).toContain('data-testid="byte-inspector"');
    expect(html).toContain('tools/call #2');
    expect(html).not.toContain('Replay');
    expect(html).toContain('The presenter’s page has closed.');
  });
});
