import { describe, expect, it } from 'vitest';
import { FOLLOW_SLACK_PX, stillAtBottom } from './log-follow.ts';

describe('stillAtBottom', () => {
  it('follows from the start, before the list ever scrolled itself', () => {
    expect(stillAtBottom({ scrollTop: 0, clientHeight: 480, scrollHeight: 480 }, null)).toBe(true);
  });

  it('keeps following when rows arrived after the last scroll but the reader did not move', () => {
    // Scrolled to the end of a 2,000 px list; 300 px of rows came since: the reader is where it was.
    expect(stillAtBottom({ scrollTop: 1520, clientHeight: 480, scrollHeight: 2300 }, 2000)).toBe(true);
  });

  it('keeps following when rows measured shorter moved the bottom up and pulled the reader with it', () => {
    // Scrolled to the end of a 2,000 px list; rows measured 100 px shorter than their estimate: the
    // browser clamped the reader to the new end, 1,900 px.
    expect(stillAtBottom({ scrollTop: 1420, clientHeight: 480, scrollHeight: 1900 }, 2000)).toBe(true);
    // A reader who scrolled up from there has still left it.
    expect(stillAtBottom({ scrollTop: 1420 - FOLLOW_SLACK_PX - 1, clientHeight: 480, scrollHeight: 1900 }, 2000)).toBe(false);
  });

  it('stops when the reader scrolled up, and starts again at the bottom', () => {
    expect(stillAtBottom({ scrollTop: 1520 - FOLLOW_SLACK_PX - 1, clientHeight: 480, scrollHeight: 2300 }, 2000)).toBe(false);
    expect(stillAtBottom({ scrollTop: 1520 - FOLLOW_SLACK_PX, clientHeight: 480, scrollHeight: 2300 }, 2000)).toBe(true);
    expect(stillAtBottom({ scrollTop: 0, clientHeight: 480, scrollHeight: 2300 }, 2000)).toBe(false);
    // Back at the (now lower) bottom: following again.
    expect(stillAtBottom({ scrollTop: 1820, clientHeight: 480, scrollHeight: 2300 }, 2000)).toBe(true);
  });
});
