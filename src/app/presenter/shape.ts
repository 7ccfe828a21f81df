// Small type guards that compose, for checking data that crossed a boundary we do not control (a
// BroadcastChannel message from any page of this origin). Each guard answers yes or no; nothing
// is coerced, so what passes is exactly the type it claims.

export type Guard<T> = (value: unknown) => value is T;

export const isString: Guard<string> = (value): value is string => typeof value === 'string';
export const isBoolean: Guard<boolean> = (value): value is boolean => typeof value === 'boolean';
export const isNumber: Guard<number> = (value): value is number => typeof value === 'number' && Number.isFinite(value);
export const isCount: Guard<number> = (value): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
export const isBytes: Guard<Uint8Array> = (value): value is Uint8Array => value instanceof Uint8Array;

export function literal<const T extends readonly (string | number | boolean | null)[]>(...values: T): Guard<T[number]> {
  return (value): value is T[number] => values.includes(value as T[number]);
}

export function nullable<T>(guard: Guard<T>): Guard<T | null> {
  return (value): value is T | null => value === null || guard(value);
}

export function arrayOf<T>(guard: Guard<T>, maxLength = 10_000): Guard<T[]> {
  return (value): value is T[] => Array.isArray(value) && value.length <= maxLength && value.every((item) => guard(item));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** An object with at least these fields, each passing its guard (extra fields are allowed and ignored). */
export function objectOf<T extends object>(fields: { [K in keyof T]-?: Guard<T[K]> }): Guard<T> {
  const entries = Object.entries(fields) as Array<[string, Guard<unknown>]>;
  return (value): value is T => isPlainObject(value) && entries.every(([key, guard]) => guard(value[key]));
}

export function oneOf<A, B>(a: Guard<A>, b: Guard<B>): Guard<A | B> {
  return (value): value is A | B => a(value) || b(value);
}

/** A value JSON could have produced: what the diagram's frames hold once parsed. Depth-limited. */
export function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  return false;
}

export const isJson: Guard<unknown> = (value): value is unknown => isJsonValue(value);
