// Find in the message log: search, direction, kind, method and time filters, "pinned only". Every
// control is a native form control or a toggle button (aria-pressed), so Tab, Space and Enter
// work as everywhere; "/" anywhere in the log jumps here, Escape clears the search.

import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { FIND_DIRECTIONS, FIND_KINDS, isQueryActive, parseTimeBound } from '../../app/live-session/log-find.ts';
import type { LogFindStore } from '../../app/live-session/log-find-store.ts';
import { useStore } from '../hooks/use-store.ts';

export interface FindBarProps {
  find: LogFindStore;
  methods: readonly string[];
  shown: number;
  total: number;
  /** A long log is being filtered a slice at a time: the count is the previous query's. */
  searching?: boolean;
  listId: string;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Enter in the search box: move to the first row shown. */
  onEnterResults(): void;
}

export function FindBar({ find, methods, shown, total, searching = false, listId, searchRef, onEnterResults }: FindBarProps) {
  const { t } = useTranslation('live');
  const { query } = useStore(find);
  const ids = { search: useId(), method: useId(), from: useId(), to: useId(), keys: useId() };
  // The time fields keep what was typed (a half-typed "1." is not a number yet); the store gets numbers.
  const [fromText, setFromText] = useState('');
  const [toText, setToText] = useState('');

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && query.text !== '') {
      event.preventDefault();
      event.stopPropagation();
      find.setText('');
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onEnterResults();
    }
  };
  const clearAll = () => {
    setFromText('');
    setToText('');
    find.clearQuery();
    searchRef.current?.focus();
  };

  return (
    <div className="find-bar" role="search" aria-label={t('find.label')} data-testid="find-bar">
      <div className="find-bar__row">
        <label htmlFor={ids.search}>{t('find.search')}</label>
        <input
          ref={searchRef}
          id={ids.search}
          type="search"
          value={query.text}
          placeholder={t('find.searchPlaceholder')}
          aria-controls={listId}
          aria-describedby={ids.keys}
          onChange={(event) => find.setText(event.target.value)}
          onKeyDown={onSearchKey}
          data-testid="find-search"
        />
        {/* A live region, not role="status": the panel's status line stays the one status there. */}
        <span aria-live="polite" className="find-bar__count" data-testid="find-count">
          {searching ? t('find.searching') : isQueryActive(query) ? t('find.shown', { shown, total }) : ''}
        </span>
      </div>
      <div className="find-bar__row">
        <div role="group" aria-label={t('find.direction')} className="find-bar__group">
          <span aria-hidden="true" className="find-bar__group-label">
            {t('find.direction')}
          </span>
          {FIND_DIRECTIONS.map((direction) => (
            <button key={direction} type="button" className="toggle" aria-pressed={query.directions.includes(direction)} onClick={() => find.toggleDirection(direction)}>
              {t(`log.${direction}`)}
            </button>
          ))}
        </div>
        <div role="group" aria-label={t('find.kind')} className="find-bar__group">
          <span aria-hidden="true" className="find-bar__group-label">
            {t('find.kind')}
          </span>
          {FIND_KINDS.map((kind) => (
            <button key={kind} type="button" className="toggle" aria-pressed={query.kinds.includes(kind)} onClick={() => find.toggleKind(kind)} data-kind={kind}>
              {t(`find.kinds.${kind}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="find-bar__row">
        <label htmlFor={ids.method}>{t('find.method')}</label>
        <select id={ids.method} value={query.method ?? ''} onChange={(event) => find.setMethod(event.target.value === '' ? null : event.target.value)}>
          <option value="">{t('find.anyMethod')}</option>
          {/* A method chosen before the log was cleared stays selectable, so the select never lies. */}
          {[...new Set([...methods, ...(query.method === null ? [] : [query.method])])].map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </select>
        <label htmlFor={ids.from}>{t('find.from')}</label>
        <input
          id={ids.from}
          className="find-bar__time"
          inputMode="decimal"
          value={fromText}
          onChange={(event) => {
            setFromText(event.target.value);
            find.setTimeRange(parseTimeBound(event.target.value), query.to);
          }}
        />
        <label htmlFor={ids.to}>{t('find.to')}</label>
        <input
          id={ids.to}
          className="find-bar__time"
          inputMode="decimal"
          value={toText}
          onChange={(event) => {
            setToText(event.target.value);
            find.setTimeRange(query.from, parseTimeBound(event.target.value));
          }}
        />
        <label className="find-bar__check">
          <input type="checkbox" checked={query.pinnedOnly} onChange={(event) => find.setPinnedOnly(event.target.checked)} />
          {t('find.pinnedOnly')}
        </label>
        <button type="button" onClick={clearAll} disabled={!isQueryActive(query)}>
          {t('find.clear')}
        </button>
      </div>
      <p id={ids.keys} className="hint find-bar__keys">
        {t('find.keys')}
      </p>
    </div>
  );
}
