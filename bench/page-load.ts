// Page load of the production build, served locally by server/start.ts, in headless Chromium:
// - the JavaScript needed before the editor opens, gzipped, against the 180 KB budget: from the
//   build's module graph (first-paint-js.ts, exact) and, as a cross-check, from the page's real
//   network requests (Resource Timing) up to the moment it is usable;
// - the time to a usable page: navigation start → the lesson heading and an enabled Run button
//   are on screen (the frame after they appear), median of N cold loads, each in a fresh browser
//   context (empty cache, no service worker). The baseline, measured in the same run by the same
//   probe, is a blank static HTML page with one heading from the same server: what the machine,
//   the browser and the server cost before any of our code runs.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/e2e/chromium.ts';
import { currentBuild, serveBuild } from './app-build.ts';
import { FIRST_PAINT_JS_BUDGET_BYTES, gzipSize, kilobytes, measureFirstPaintJs, type FirstPaintJs } from './first-paint-js.ts';
import { formatTable, median, ratio } from './report.ts';

export interface PageLoadReport {
  firstPaintJs: FirstPaintJs;
  budgetBytes: number;
  /** totalGzipBytes / budgetBytes: at most 1 meets the budget. */
  budgetRatio: number;
  /** gzip size of the .js files the page had requested by the time it was usable (median run). */
  networkJsBeforeUsableGzipBytes: number;
  networkJsFilesBeforeUsable: string[];
  runs: number;
  usableMedianMs: number;
  usableSamplesMs: number[];
  baselineMedianMs: number;
  baselineSamplesMs: number[];
  /** usableMedianMs / baselineMedianMs */
  usableVsBaseline: number;
  /** When the Monaco editor appeared (median), for context: it loads after the page is usable. */
  editorMountedMedianMs: number | null;
}

export interface PageLoadOptions {
  runs?: number;
  /** One untimed load of each page first (default true). */
  warmUp?: boolean;
  /** A production build to measure as it is (see app-build.ts); default dist/, built when stale. */
  distDir?: string;
}

const DEFAULT_RUNS = 7;
const LOAD_TIMEOUT_MS = 60_000;
const BLANK_PAGE = 'bench-blank.html';

/**
 * Runs in the page before any of its scripts: watches the DOM and stamps the frame in which the
 * selectors first all match visible, enabled elements (performance.now() counts from navigation
 * start). Also stamps when Monaco's editor appears. A string, not a function: tsx's transpiler
 * wraps named inner functions in a helper (__name) that does not exist inside the page. An init
 * script is injected over CDP, so the page's CSP does not apply to it; evaluate and waitForFunction
 * below pass functions with no named inner functions, for the same reason.
 */
function usableProbe(selectors: string[]): string {
  return `(() => {
  const selectors = ${JSON.stringify(selectors)};
  const ready = () => selectors.every((selector) => {
    const element = document.querySelector(selector);
    return element instanceof HTMLElement && element.checkVisibility() && !element.disabled;
  });
  let pending = false;
  const check = () => {
    if (window.__editorAt === undefined && document.querySelector('.monaco-editor')) window.__editorAt = performance.now();
    if (window.__usableAt !== undefined || pending || !ready()) return;
    pending = true;
    requestAnimationFrame(() => { window.__usableAt = performance.now(); });
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
})();`;
}

/** What usableProbe leaves on window. */
type ProbedWindow = Window & { __usableAt?: number; __editorAt?: number };

interface Sample {
  usableMs: number;
  editorMs: number | null;
  scriptsBeforeUsable: string[];
}

async function coldLoad(browser: Browser, url: string, selectors: string[], waitForEditor = false): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.addInitScript(usableProbe(selectors));
    await page.goto(url, { waitUntil: 'commit', timeout: LOAD_TIMEOUT_MS });
    // Functions, not strings: playwright hands a function to the page over CDP, while a string is
    // eval'd by the page, which the app's CSP (script-src 'self', no 'unsafe-eval') refuses.
    await page.waitForFunction(() => (window as ProbedWindow).__usableAt !== undefined, undefined, { timeout: LOAD_TIMEOUT_MS });
    // The editor loads after the page is usable; wait for it only to report when it came.
    if (waitForEditor) await page.locator('.monaco-editor').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    return await page.evaluate((): Sample => {
      const probed = window as ProbedWindow;
      const usableAt = probed.__usableAt ?? 0;
      return {
        usableMs: usableAt,
        editorMs: probed.__editorAt ?? null,
        scriptsBeforeUsable: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js') && entry.startTime <= usableAt)
          .map((entry) => new URL(entry.name).pathname),
      };
    });
  } finally {
    await context.close();
  }
}

export async function runPageLoadBench(options: PageLoadOptions = {}): Promise<PageLoadReport> {
  const runs = options.runs ?? DEFAULT_RUNS;
  // Build dist/ if it is stale, then serve a private copy of it with a blank page added, so a
  // rebuild started meanwhile cannot change the files under the bench.
  const built = await currentBuild(options.distDir);
  const distCopy = mkdtempSync(join(tmpdir(), 'mcp-playground-bench-dist-'));
  cpSync(built, distCopy, { recursive: true });
  writeFileSync(join(distCopy, BLANK_PAGE), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><h1 id="blank">Blank</h1></body></html>\n');
  const firstPaintJs = await measureFirstPaintJs(distCopy);
  const server = await serveBuild(distCopy);
  const browser = await launchChromium();
  try {
    const app = `${server.url}?host=worker`;
    const appSelectors = ['[data-testid="lesson"] article h2', '[data-testid="run-button"]'];
    const blank = `${server.url}${BLANK_PAGE}`;
    // One untimed load of each warms the server's file reads and Chromium's process pool.
    if (options.warmUp !== false) {
      await coldLoad(browser, app, appSelectors, true);
      await coldLoad(browser, blank, ['#blank']);
    }
    const appSamples: Sample[] = [];
    const blankSamples: Sample[] = [];
    // Interleaved, so a slow patch of the shared machine hits both alike.
    for (let run = 0; run < runs; run++) {
      blankSamples.push(await coldLoad(browser, blank, ['#blank']));
      appSamples.push(await coldLoad(browser, app, appSelectors, true));
    }
    const usable = appSamples.map((sample) => sample.usableMs);
    const baseline = blankSamples.map((sample) => sample.usableMs);
    const usableMedianMs = median(usable);
    const medianSample = [...appSamples].sort((a, b) => a.usableMs - b.usableMs)[Math.floor(appSamples.length / 2)] as Sample;
    const networkFiles = [...new Set(medianSample.scriptsBeforeUsable)];
    const editorTimes = appSamples.map((sample) => sample.editorMs).filter((ms): ms is number => ms !== null);
    return {
      firstPaintJs,
      budgetBytes: FIRST_PAINT_JS_BUDGET_BYTES,
      budgetRatio: firstPaintJs.totalGzipBytes / FIRST_PAINT_JS_BUDGET_BYTES,
      networkJsBeforeUsableGzipBytes: networkFiles.reduce((sum, file) => sum + gzipSize(readFileSync(join(distCopy, file))), 0),
      networkJsFilesBeforeUsable: networkFiles,
      runs,
      usableMedianMs,
      usableSamplesMs: usable,
      baselineMedianMs: median(baseline),
      baselineSamplesMs: baseline,
      usableVsBaseline: usableMedianMs / median(baseline),
      editorMountedMedianMs: editorTimes.length > 0 ? median(editorTimes) : null,
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(distCopy, { recursive: true, force: true });
  }
}

export function formatPageLoadReport(report: PageLoadReport): string {
  const js = report.firstPaintJs;
  const met = report.budgetRatio <= 1;
  const sizeTable = formatTable(
    ['JavaScript before the editor opens', 'files', 'raw', 'gzip', 'budget', '× budget', 'goal'],
    [
      ['build module graph (entry + static imports)', String(js.chunks.length), kilobytes(js.totalBytes), kilobytes(js.totalGzipBytes), kilobytes(report.budgetBytes), ratio(report.budgetRatio), met ? 'met' : 'MISSED'],
      [
        'network: .js requested before usable',
        String(report.networkJsFilesBeforeUsable.length),
        '',
        kilobytes(report.networkJsBeforeUsableGzipBytes),
        kilobytes(report.budgetBytes),
        ratio(report.networkJsBeforeUsableGzipBytes / report.budgetBytes),
        report.networkJsBeforeUsableGzipBytes <= report.budgetBytes ? 'met' : 'MISSED',
      ],
    ],
  );
  const timeTable = formatTable(
    ['page (cold load, fresh context)', 'median ms', 'samples ms', '× blank page'],
    [
      ['blank static HTML, same server (baseline)', report.baselineMedianMs.toFixed(0), report.baselineSamplesMs.map((ms) => ms.toFixed(0)).join(' '), ratio(1)],
      ['MCP Playground: lesson heading + Run button usable', report.usableMedianMs.toFixed(0), report.usableSamplesMs.map((ms) => ms.toFixed(0)).join(' '), ratio(report.usableVsBaseline)],
    ],
  );
  const editor = report.editorMountedMedianMs === null ? 'the editor did not appear during the probe' : `the Monaco editor appeared at ${report.editorMountedMedianMs.toFixed(0)} ms (median), loaded lazily after that`;
  return [sizeTable, `gzip: zlib default level; budget ${kilobytes(report.budgetBytes)} gzipped`, '', timeTable, `${report.runs} cold loads each, interleaved; ${editor}`].join('\n');
}
