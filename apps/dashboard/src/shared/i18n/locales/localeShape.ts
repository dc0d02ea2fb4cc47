/** The same keys as the English strings, each holding a translated string. */
export type LocaleOf<T> = { [K in keyof T]: T[K] extends string ? string : LocaleOf<T[K]> };
