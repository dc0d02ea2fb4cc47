/** Spec §9: a page chunk that has not loaded after 120 s fails, and the error with a retry shows. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A page's code did not arrive (network, a redeploy that removed the chunk, or the timeout). */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

export const isChunkLoadError = (error: unknown): error is ChunkLoadError => error instanceof ChunkLoadError;

export const withChunkTimeout = <T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS) => {
  return (): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ChunkLoadError(`page chunk did not load in ${timeoutMs} ms`)),
        timeoutMs,
      );
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          const message = error instanceof Error ? error.message : String(error);
          reject(new ChunkLoadError(message, { cause: error }));
        },
      );
    });
};
