/** Spec §9: a page chunk that has not loaded after 120 s fails, and the error page shows. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const withChunkTimeout = <T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS) => {
  return (): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`page chunk did not load in ${timeoutMs} ms`)), timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
};
