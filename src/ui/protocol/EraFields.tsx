// The byte inspector's list of a frame's 2026-07-28 fields (the `_meta` envelope keys, the
// server's identity, resultType), each lighting its bytes in the hex view when pointed at or
// focused. Loaded only for frames that have such fields, with the `era` namespace's text.

import type { JsonPath } from '../../protocol/inspect/byte-fields.ts';
import { eraFields } from '../../protocol/inspect/era-fields.ts';
import { useEraText } from './use-era-text.ts';
import './era-panel.css';

export interface EraFieldsProps {
  value: unknown;
  litPath: JsonPath | null;
  onPath(path: JsonPath | null): void;
}

export default function EraFields({ value, litPath, onPath }: EraFieldsProps) {
  const t = useEraText();
  const fields = eraFields(value);
  const lit = litPath === null ? null : pathKey(litPath);
  return (
    <section className="era-fields" aria-labelledby="era-fields-heading" data-testid="era-fields">
      <h4 id="era-fields-heading">{t('meta.heading')}</h4>
      <p className="hint">{t('meta.hint')}</p>
      <ul>
        {fields.map((field) => (
          <li key={pathKey(field.path)}>
            <button
              type="button"
              className={`link-button mono era-fields__key${lit === pathKey(field.path) ? ' is-lit' : ''}`}
              data-key={field.key}
              title={field.key === 'resultType' ? t('meta.resultType') : undefined}
              onMouseEnter={() => onPath(field.path)}
              onMouseLeave={() => onPath(null)}
              onFocus={() => onPath(field.path)}
              onBlur={() => onPath(null)}
              onClick={() => onPath(field.path)}
            >
              {field.key}
            </button>{' '}
            <span className="mono hint">{short(field.value)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

// Type-only import above: importing byte-fields' own pathKey would split that module out of the
// first-paint bundle into a chunk shared with this lazy one.
function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
