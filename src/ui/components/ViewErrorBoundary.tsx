// One per view (study, protocol, chapter loop, trace, preflight, live panel): a view that throws
// while rendering says so in its own place, in the page's language, and the rest of the app keeps
// running. Without it React unmounts the whole root and the page goes blank.

import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The views, named by their `nav.*` key in common.json (the same words as the header). */
export type ViewName = 'exercise' | 'livePanel' | 'protocol' | 'chapterLoop' | 'preflight' | 'trace' | 'room';

interface Props {
  view: ViewName;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class ViewErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The page's console keeps the stack for a bug report; the view shows only the message.
    console.error(`[view ${this.props.view}] failed`, error, info.componentStack);
  }

  private readonly retry = (): void => this.setState({ error: null });

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return <ViewFailed view={this.props.view} message={this.state.error.message} onRetry={this.retry} />;
  }
}

export function ViewFailed({ view, message, onRetry }: { view: ViewName; message: string; onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <section className="notice is-error view-failed" role="alert">
      <h2>{t('viewError.heading', { view: t(`nav.${view}`) })}</h2>
      <p>{t('viewError.body', { message: message.length > 300 ? `${message.slice(0, 300)}…` : message })}</p>
      <button type="button" onClick={onRetry}>
        {t('viewError.retry')}
      </button>
    </section>
  );
}
