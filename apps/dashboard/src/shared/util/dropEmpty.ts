type Defined<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

/** Spec §5: payloads leave out empty strings, null and undefined (false and 0 are kept). */
export const dropEmpty = <T extends object>(payload: T): Defined<T> =>
  Object.fromEntries(
    Object.entries(payload).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  ) as Defined<T>;
