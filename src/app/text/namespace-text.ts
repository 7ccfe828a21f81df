// The types of each feature's `t`: its namespace's keys typed from the English JSON, so a key that
// does not exist is a type error. The hook that looks them up is React, so it lives in
// src/ui/hooks/use-namespace-text.ts; this file stays React-free.

/** 'a.b.c' for every string leaf of T. */
export type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type NamespaceText<T> = (key: Leaves<T>, values?: Record<string, string | number>) => string;
