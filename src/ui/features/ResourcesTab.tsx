// Resources: list, read, subscribe; change the counter and watch notifications/resources/updated
// arrive on the session's GET stream.

import type { TabProps } from './FeaturesPanel.tsx';
import { useFeaturesText } from './use-features-text.ts';

export function ResourcesTab({ store, state, disabled }: TabProps) {
  const t = useFeaturesText();
  const { list, read, subscribed, updates, changed } = state.resources;
  return (
    <div className="features-tab">
      <p className="hint">{t('resources.intro')}</p>
      <div className="button-row">
        <button type="button" disabled={disabled} onClick={() => void store.listResources()} data-testid="resources-list">
          {t('resources.list')}
        </button>
        <button type="button" disabled={disabled} onClick={() => void store.changeCounter()} data-testid="resources-change">
          {t('resources.change')}
        </button>
      </div>
      {list.length > 0 && (
        <ul className="features-rows" data-testid="resources-rows">
          {list.map((resource) => {
            const isSubscribed = subscribed.includes(resource.uri);
            return (
              <li key={resource.uri} className="features-row">
                <span className="mono">{resource.uri}</span> <span>{resource.name}</span> {isSubscribed && <span className="badge">{t('resources.subscribed')}</span>}
                <span className="button-row">
                  <button type="button" disabled={disabled} onClick={() => void store.readResource(resource.uri)} aria-label={`${t('resources.read')} ${resource.uri}`} data-testid={`resource-read-${resource.uri}`}>
                    {t('resources.read')}
                  </button>
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => void store.toggleSubscription(resource.uri)}
                    aria-label={`${t(isSubscribed ? 'resources.unsubscribe' : 'resources.subscribe')} ${resource.uri}`}
                    data-testid={`resource-subscribe-${resource.uri}`}
                  >
                    {t(isSubscribed ? 'resources.unsubscribe' : 'resources.subscribe')}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {changed !== null && <p data-testid="resources-changed">{t('resources.changed', { text: changed })}</p>}
      {read !== null && (
        <>
          <p className="features-exchanges__label">{t('resources.contents', { uri: read.uri })}</p>
          <pre className="mono features-pre" data-testid="resources-contents">
            {read.text}
          </pre>
        </>
      )}
      <p className="features-exchanges__label">{t('resources.updates')}</p>
      {updates.length === 0 ? (
        <p className="hint">{t('resources.noUpdates')}</p>
      ) : (
        <>
          <ol className="features-list" data-testid="resources-updates">
            {updates.map((uri, index) => (
              <li key={index}>{t('resources.update', { uri })}</li>
            ))}
          </ol>
          {/* The notification carries only the URI: a client that wants the new contents reads again. */}
          <button type="button" disabled={disabled} onClick={() => void store.readResource(updates.at(-1)!)} data-testid="resources-read-again">
            {t('resources.readAgain', { uri: updates.at(-1)! })}
          </button>
        </>
      )}
    </div>
  );
}
