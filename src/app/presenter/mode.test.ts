import { describe, expect, it } from 'vitest';
import { modeHref, pageMode } from './mode.ts';

describe('page mode', () => {
  it('reads presenter and follow from the query', () => {
    expect(pageMode('')).toBe('app');
    expect(pageMode('?host=worker')).toBe('app');
    expect(pageMode('?presenter=1')).toBe('presenter');
    expect(pageMode('?presenter=true&host=worker')).toBe('presenter');
    expect(pageMode('?presenter=1&follow=1')).toBe('follow');
    expect(pageMode('?follow=1')).toBe('follow');
    expect(pageMode('?follow')).toBe('follow');
  });

  it('does not switch on for an explicit off', () => {
    expect(pageMode('?presenter=0')).toBe('app');
    expect(pageMode('?presenter=1&follow=0')).toBe('presenter');
    expect(pageMode('?presenter=no')).toBe('app');
  });

  it('builds links to the other modes, keeping the host and token and dropping the hash', () => {
    const base = 'http://127.0.0.1:5173/?host=worker&token=abc#protocol/step/3';
    expect(modeHref(base, 'presenter')).toBe('http://127.0.0.1:5173/?host=worker&token=abc&presenter=1');
    expect(modeHref(base, 'follow')).toBe('http://127.0.0.1:5173/?host=worker&token=abc&presenter=1&follow=1');
    expect(modeHref('http://x/?presenter=1&follow=1&host=bridge', 'app')).toBe('http://x/?host=bridge');
  });
});
