import { useEffect, useState } from 'react';

/** What a page shows while public data loads, once it has arrived, or when it failed. */
export interface Loaded<T> {
  data: T | undefined;
  isPending: boolean;
  error: unknown;
}

// One answer per key for the page's lifetime: settings that the sign-in pages read (footer, captcha
// types, registration). A failure is not kept, so the next page that asks tries again.
const answers = new Map<string, Promise<unknown>>();

/**
 * Loads data the public pages need once (GET /v1/common/sysinfo and the like) through the HTTP
 * client. The sign-in pages use this instead of TanStack Query, which only the console loads.
 */
export const useLoaded = <T>(key: string, load: () => Promise<T>): Loaded<T> => {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, isPending: true, error: undefined });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the call; `load` is a new function each render
  useEffect(() => {
    let current = true;
    let answer = answers.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = load();
      answers.set(key, answer);
    }
    answer.then(
      (data) => current && setState({ data, isPending: false, error: undefined }),
      (error: unknown) => {
        answers.delete(key);
        if (current) setState({ data: undefined, isPending: false, error });
      },
    );
    return () => {
      current = false;
    };
  }, [key]);
  return state;
};

/** Forgets the loaded answers (tests start each case afresh). */
export const forgetLoaded = (): void => answers.clear();
