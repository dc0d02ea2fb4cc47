import { useEffect, useRef, useState } from 'react';
import { type ApiError, isApiError } from '../../shared/http/apiError.ts';

export interface LiveQuote<Q> {
  quote: Q | undefined;
  error: ApiError | undefined;
  loading: boolean;
}

/** Time after the last change before a quote is asked for: typing a coupon asks once, not per key. */
export const QUOTE_DELAY_MS = 400;

/**
 * A price that follows a form: `key` names what is asked (null while the form cannot be quoted), and
 * a change of it cancels the call in flight and asks again after a short pause. The last good quote
 * stays on screen while the next one loads; an error belongs to the key it was answered for.
 */
export const useLiveQuote = <Q>(
  key: string | null,
  ask: (signal: AbortSignal) => Promise<Q>,
  delayMs = QUOTE_DELAY_MS,
): LiveQuote<Q> => {
  const [state, setState] = useState<LiveQuote<Q>>({ quote: undefined, error: undefined, loading: key !== null });
  const askRef = useRef(ask);
  askRef.current = ask;

  useEffect(() => {
    if (key === null) {
      setState({ quote: undefined, error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ quote: previous.quote, error: undefined, loading: true }));
    const timer = setTimeout(() => {
      askRef.current(controller.signal).then(
        (quote) => {
          if (!controller.signal.aborted) setState({ quote, error: undefined, loading: false });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ quote: undefined, error: isApiError(error) ? error : undefined, loading: false });
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, delayMs]);

  return state;
};
