// The decoded JSON as a tree. Hovering or focusing a field asks the inspector to light its bytes;
// the field the inspector says is under the mouse (from the hex side) is lit here.

import { memo } from 'react';
import { pathKey, type JsonPath } from '../../protocol/inspect/byte-fields.ts';

export interface JsonTreeProps {
  value: unknown;
  label: string;
  litPath: JsonPath | null;
  onHoverPath?: (path: JsonPath | null) => void;
}

export const JsonTree = memo(function JsonTree({ value, label, litPath, onHoverPath }: JsonTreeProps) {
  const lit = litPath === null ? null : pathKey(litPath);
  return (
    <ul className="json-tree mono" role="tree" aria-label={label} onMouseLeave={() => onHoverPath?.(null)} data-testid="json-tree">
      <JsonNode name={null} value={value} path={[]} lit={lit} onHoverPath={onHoverPath} />
    </ul>
  );
});

interface NodeProps {
  name: string | number | null;
  value: unknown;
  path: JsonPath;
  lit: string | null;
  onHoverPath: ((path: JsonPath | null) => void) | undefined;
}

function JsonNode({ name, value, path, lit, onHoverPath }: NodeProps) {
  const key = pathKey(path);
  const isArray = Array.isArray(value);
  const isObject = typeof value === 'object' && value !== null;
  const children: Array<[string | number, unknown]> = isArray ? value.map((child, i) => [i, child]) : isObject ? Object.entries(value as Record<string, unknown>) : [];
  const enter = () => onHoverPath?.(path);
  const row = (
    <span className={`json-row${lit === key ? ' is-lit' : ''}`} data-path={key} tabIndex={0} onMouseEnter={enter} onFocus={enter} onBlur={() => onHoverPath?.(null)}>
      {name !== null && <span className={typeof name === 'number' ? 'json-index' : 'json-key'}>{typeof name === 'number' ? `[${name}]` : JSON.stringify(name)}</span>}
      {name !== null && <span className="json-punct">: </span>}
      {isObject ? <span className="json-punct">{isArray ? `[ ${children.length} ]` : `{ ${children.length} }`}</span> : <span className={`json-value json-value--${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>}
    </span>
  );
  return (
    <li role="treeitem" aria-expanded={isObject ? true : undefined} aria-selected={lit === key}>
      {row}
      {isObject && children.length > 0 && (
        <ul role="group">
          {children.map(([childName, child]) => (
            <JsonNode key={String(childName)} name={childName} value={child} path={[...path, childName]} lit={lit} onHoverPath={onHoverPath} />
          ))}
        </ul>
      )}
    </li>
  );
}
