import { describe, expect, it, vi } from 'vitest';
import { createSpecCollector, formatEachTitle, type SpecApi } from './spec-api.ts';
import { runSuiteTree } from './test-executor.ts';
import type { TestResult } from './spec-results.ts';
import { PROPERTY_TEST } from '../protocol/property-runs.ts';

/** Collects the tests `define` registers with the in-browser API, then runs them. */
async function runTests(define: (api: SpecApi) => void, options: { testTimeoutMs?: number; steps?: Record<string, string>; onResult?(result: TestResult): void; onExamplesDone?(properties: number): void } = {}) {
  const collector = createSpecCollector();
  define(collector.api);
  const results = await runSuiteTree(collector.root, {
    expect: collector.api.expect,
    setCurrentTest: collector.setCurrentTest,
    locateTest: (test) => ({ code: String(test.fn) }),
    learnerLineOf: () => undefined,
    ...options,
  });
  collector.restoreSpies();
  return results;
}

describe('the in-browser spec API', () => {
  it('reports pass, fail (an assertion) and error (anything else thrown), in file order', async () => {
    const results = await runTests(({ it, expect }) => {
      it('passes', () => expect(1 + 1).toBe(2));
      it('fails', () => expect(1 + 1).toBe(3));
      it('errors', () => {
        (undefined as unknown as { x: () => void }).x();
      });
    });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['passes', 'pass'],
      ['fails', 'fail'],
      ['errors', 'error'],
    ]);
    expect(results[1]?.message).toBe('expected 2 to be 3 // Object.is equality');
    expect(results[2]?.message).toMatch(/^TypeError: Cannot read properties of undefined/);
  });

  it('gives a failed comparison its expected and actual values and a diff', async () => {
    const [result] = await runTests(({ it, expect }) => {
      it('compares', () => expect({ id: 0, method: 'pong' }).toEqual({ id: 0, method: 'ping' }));
    });
    expect(result?.status).toBe('fail');
    expect(result?.expected).toBe('{\n  "id": 0,\n  "method": "ping",\n}');
    expect(result?.actual).toBe('{\n  "id": 0,\n  "method": "pong",\n}');
    expect(result?.diff).toContain('-   "method": "ping",');
    expect(result?.diff).toContain('+   "method": "pong",');
    expect(result?.diff).not.toMatch(/\u001b\[/); // plain text, whatever the terminal
  });

  it('runs async tests, and .resolves / .rejects, to completion', async () => {
    const results = await runTests(({ it, expect }) => {
      it('awaits', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(true).toBe(true);
      });
      it('resolves', async () => {
        await expect(Promise.resolve(7)).resolves.toBe(7);
      });
      it('rejects with the wrong message', async () => {
        await expect(Promise.reject(new Error('closed'))).rejects.toThrow('timed out');
      });
    });
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'fail']);
  });

  it('fails a test that never settles after its time limit, and still runs the next', async () => {
    let aborted = false;
    // No clock reading: the limit is the executor's own (real) timer, so its message names the 50 ms,
    // and a run that waited on the hang for ever would not get here at all.
    const results = await runTests(
      ({ it, expect }) => {
        it('hangs', ({ signal }) => {
          signal.addEventListener('abort', () => (aborted = true));
          return new Promise(() => {});
        });
        it('asks for more time', () => new Promise((resolve) => setTimeout(resolve, 80)), 200);
        it('runs after', () => expect(1).toBe(1));
      },
      { testTimeoutMs: 50 },
    );
    expect(results.map((r) => r.status)).toEqual(['fail', 'pass', 'pass']);
    expect(results[0]?.message).toMatch(/^The test timed out after 50 ms/);
    expect(aborted).toBe(true);
  });

  it('runs hooks in Vitest order: before* outer to inner, after* inner to outer, cleanups last', async () => {
    const log: string[] = [];
    await runTests(({ describe, it, beforeAll, afterAll, beforeEach, afterEach }) => {
      beforeAll(() => void log.push('beforeAll outer'));
      afterAll(() => void log.push('afterAll outer'));
      beforeEach(() => {
        log.push('beforeEach outer');
        return () => log.push('cleanup outer');
      });
      afterEach(() => void log.push('afterEach outer'));
      describe('inner', () => {
        beforeAll(() => void log.push('beforeAll inner'));
        afterAll(() => void log.push('afterAll inner'));
        beforeEach(() => void log.push('beforeEach inner'));
        afterEach(() => void log.push('afterEach inner 1'));
        afterEach(() => void log.push('afterEach inner 2'));
        it('test', () => void log.push('test'));
      });
    });
    expect(log).toEqual([
      'beforeAll outer',
      'beforeAll inner',
      'beforeEach outer',
      'beforeEach inner',
      'test',
      'afterEach inner 2',
      'afterEach inner 1',
      'afterEach outer',
      'cleanup outer',
      'afterAll inner',
      'afterAll outer',
    ]);
  });

  it('reports the tests under a failed beforeAll as not run, and a failed afterAll on its own', async () => {
    const results = await runTests(({ describe, it, beforeAll, afterAll }) => {
      describe('broken setup', () => {
        beforeAll(() => {
          throw new Error('no server');
        });
        it('a', () => {});
        it('b', () => {});
      });
      describe('broken teardown', () => {
        afterAll(() => {
          throw new Error('still open');
        });
        it('c', () => {});
      });
    });
    expect(results.map((r) => [r.name, r.status, r.message])).toEqual([
      ['broken setup › a', 'error', 'Not run: a beforeAll hook failed: no server'],
      ['broken setup › b', 'error', 'Not run: a beforeAll hook failed: no server'],
      ['broken teardown › c', 'pass', undefined],
      ['broken teardown › afterAll hook', 'error', 'still open'],
    ]);
  });

  it('checks expect.assertions and expect.hasAssertions', async () => {
    const results = await runTests(({ it, expect }) => {
      it('counts', () => {
        expect.assertions(2);
        expect(1).toBe(1);
      });
      it('needs one', () => {
        expect.hasAssertions();
      });
      it('got them', () => {
        expect.assertions(1);
        expect(1).toBe(1);
      });
    });
    expect(results.map((r) => r.status)).toEqual(['fail', 'fail', 'pass']);
    expect(results[0]?.message).toBe('expected number of assertions to be 2, but got 1');
  });

  it('fails a test whose un-awaited .resolves assertion fails, as Vitest does', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [result] = await runTests(({ it, expect }) => {
      it('forgets await', () => {
        void expect(Promise.resolve(1)).resolves.toBe(2);
      });
    });
    warn.mockRestore();
    expect(result?.status).toBe('fail');
  });

  it('names tests by their describe path and maps the nearest listed describe to its lesson step', async () => {
    const results = await runTests(
      ({ describe, it }) => {
        describe('Framing', () => {
          describe('split chunks', () => it('a', () => {}));
          it('b', () => {});
        });
        it('top', () => {});
      },
      { steps: { Framing: 'framing-heading', 'split chunks': 'split-heading' } },
    );
    expect(results.map((r) => [r.name, r.step])).toEqual([
      ['Framing › split chunks › a', 'split-heading'],
      ['Framing › b', 'framing-heading'],
      ['top', undefined],
    ]);
  });

  it('supports it.each / describe.each, vi.fn, vi.spyOn and asymmetric matchers', async () => {
    const target = { greet: (name: string) => `hello ${name}` };
    const results = await runTests(({ describe, it, expect, vi }) => {
      it.each([
        [1, 2],
        [5, 6],
      ])('adds one to %i', (a, b) => expect((a as number) + 1).toBe(b));
      describe.each([{ id: 0 }])('id $id', ({ id }) => {
        it('is a number', () => expect(id).toEqual(expect.any(Number)));
      });
      it('spies', () => {
        const callback = vi.fn();
        callback('x');
        expect(callback).toHaveBeenCalledWith('x');
        const spy = vi.spyOn(target, 'greet').mockReturnValue('spied');
        expect(target.greet('a')).toBe('spied');
        expect(spy).toHaveBeenCalledOnce();
        expect({ jsonrpc: '2.0', id: 3, result: {} }).toEqual(expect.objectContaining({ id: 3 }));
      });
    });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['adds one to 1', 'pass'],
      ['adds one to 5', 'pass'],
      ['id +0 › is a number', 'pass'],
      ['spies', 'pass'],
    ]);
    expect(target.greet('b')).toBe('hello b'); // the spec's spy was put back
  });

  it('refuses tests registered from inside a test, and async describe blocks', async () => {
    const [result] = await runTests(({ it }) => {
      it('registers another', () => it('late', () => {}));
    });
    expect(result?.message).toMatch(/must be called while the spec is loading/);
    const collector = createSpecCollector();
    expect(() => collector.api.describe('async', (async () => {}) as unknown as () => void)).toThrow(/must not be async/);
  });
});

describe('example tests first, property tests after (the examples\' verdict comes out early)', () => {
  it('runs every example test, says so with the number of properties left, then the properties; results in file order', async () => {
    const events: string[] = [];
    const results = await runTests(
      ({ describe, it, expect, beforeEach }) => {
        describe('reader', () => {
          beforeEach(() => void events.push('beforeEach'));
          it('example 1', () => expect(1).toBe(1));
          it('for any chunks', PROPERTY_TEST, () => expect(2).toBe(2));
          it('example 2', () => expect(1).toBe(2));
        });
        describe('properties by their suite', { tags: ['property'] }, () => {
          it('for any session', () => expect(3).toBe(3));
        });
        it('example 3, options last', () => expect(4).toBe(4), { timeout: 500 });
        it('another tag is no property', { tags: 'slow' }, () => expect(5).toBe(5));
      },
      { onResult: (result) => void events.push(result.name), onExamplesDone: (properties) => void events.push(`examples done; ${properties} properties`) },
    );
    expect(events.filter((event) => event !== 'beforeEach')).toEqual([
      'reader › example 1',
      'reader › example 2',
      'example 3, options last',
      'another tag is no property',
      'examples done; 2 properties',
      'reader › for any chunks',
      'properties by their suite › for any session',
    ]);
    // beforeEach still runs before each test of its suite, in either pass.
    expect(events.filter((event) => event === 'beforeEach')).toHaveLength(3);
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['reader › example 1', 'pass'],
      ['reader › for any chunks', 'pass'],
      ['reader › example 2', 'fail'],
      ['properties by their suite › for any session', 'pass'],
      ['example 3, options last', 'pass'],
      ['another tag is no property', 'pass'],
    ]);
  });

  it('keeps a property test\'s time limit, and says nothing between the passes when a spec has no property', async () => {
    let said = false;
    const results = await runTests(
      ({ it }) => {
        it('slow example', { timeout: 40 }, () => new Promise(() => {}));
      },
      { onExamplesDone: () => void (said = true) },
    );
    expect(results[0]?.message).toMatch(/timed out after 40 ms/);
    expect(said).toBe(false);
    const collector = createSpecCollector();
    collector.api.it('for any', PROPERTY_TEST, () => {});
    expect(collector.root.children[0]).toMatchObject({ property: true, timeoutMs: PROPERTY_TEST.timeout });
  });

  it('runs a suite\'s beforeAll and afterAll in each pass that has tests of it, and skips a suite with none', async () => {
    const events: string[] = [];
    await runTests(({ describe, it, beforeAll, afterAll }) => {
      describe('mixed', () => {
        beforeAll(() => void events.push('beforeAll'));
        afterAll(() => void events.push('afterAll'));
        it('example', () => void events.push('example'));
        it('property', PROPERTY_TEST, () => void events.push('property'));
      });
      describe('examples only', () => {
        beforeAll(() => void events.push('beforeAll (examples only)'));
        it('example 2', () => void events.push('example 2'));
      });
    });
    expect(events).toEqual(['beforeAll', 'example', 'afterAll', 'beforeAll (examples only)', 'example 2', 'beforeAll', 'property', 'afterAll']);
  });
});

describe('formatEachTitle', () => {
  it('formats printf placeholders, %# and $name like Vitest', () => {
    expect(formatEachTitle('%s has %d bytes (%#)', ['你好', 6], 3)).toBe('你好 has 6 bytes (3)');
    // Vitest prints a zero found through $name as +0 (loupe's objDisplay); so does this.
    expect(formatEachTitle('id $id in $case', [{ id: 0, case: 'a' }], 0)).toBe("id +0 in 'a'");
    expect(formatEachTitle('data %j', [{ a: 1 }], 0)).toBe('data {"a":1}');
  });
});
