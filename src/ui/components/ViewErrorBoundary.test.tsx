import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../app/i18n/testing.ts';
import { renderHtml } from '../testing/render.tsx';
import { ViewErrorBoundary, ViewFailed } from './ViewErrorBoundary.tsx';

// Server rendering has no error boundaries, so the boundary's two halves are tested apart: the
// state React gives it when a child throws, and what it renders in that state. (In the browser,
// tests/e2e/deep-trace.test.ts makes a real view throw and sees this message.)
describe('ViewErrorBoundary', () => {
  it('turns any thrown value into its error state', () => {
    const error = new RangeError('Maximum call stack size exceeded');
    expect(ViewErrorBoundary.getDerivedStateFromError(error)).toEqual({ error });
    expect(ViewErrorBoundary.getDerivedStateFromError('a string').error?.message).toBe('a string');
  });

  it('renders its children while nothing failed, and the failure once something did', () => {
    const boundary = new ViewErrorBoundary({ view: 'trace', children: <p>the trace</p> });
    expect(renderHtml(<>{boundary.render()}</>)).toBe('<p>the trace</p>');
    boundary.state = { error: new RangeError('too deep') };
    const html = renderHtml(<>{boundary.render()}</>);
    expect(html).toContain('role="alert"');
    expect(html).toContain('The Trace view failed.');
    expect(html).toContain('The rest of the app still works. What went wrong: too deep');
    expect(html).toContain('Try again');
    expect(html).not.toContain('the trace');
  });

  it('says it in Chinese on a Chinese page', () => {
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={createTestI18n('zh-CN')}>
        <ViewFailed view="protocol" message="坏了" onRetry={() => {}} />
      </I18nextProvider>,
    );
    expect(html).toContain('出错了');
    expect(html).toContain('应用的其他部分仍可正常使用');
    expect(html).not.toContain('The rest of the app');
  });
});
