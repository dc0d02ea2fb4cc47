import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { MessageApi, Toast } from './toast.ts';

export interface Feedback {
  error: (text: string) => void;
  success: (text: string) => void;
}

const FeedbackContext = createContext<Feedback | null>(null);

// antd's message code loads with the first message, so pages that never show one (login) do not pay for it.
const MessageHost = lazy(async () => ({ default: (await import('./MessageHost.tsx')).MessageHost }));

/** Short popups for the whole app, through a context (no global message object). */
export const FeedbackProvider = ({ children }: { children: ReactNode }) => {
  const [hostWanted, setHostWanted] = useState(false);
  const api = useRef<MessageApi | null>(null);
  const pending = useRef<Toast[]>([]);

  const show = useCallback((toast: Toast) => {
    if (api.current) {
      api.current(toast);
      return;
    }
    pending.current.push(toast);
    setHostWanted(true);
  }, []);

  const onReady = useCallback((ready: MessageApi) => {
    api.current = ready;
    for (const toast of pending.current.splice(0)) ready(toast);
  }, []);

  const feedback = useMemo<Feedback>(
    () => ({
      error: (text) => show({ type: 'error', text }),
      success: (text) => show({ type: 'success', text }),
    }),
    [show],
  );

  return (
    <FeedbackContext value={feedback}>
      {children}
      {hostWanted && (
        <Suspense fallback={null}>
          <MessageHost onReady={onReady} />
        </Suspense>
      )}
    </FeedbackContext>
  );
};

export const useFeedback = (): Feedback => {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback needs a FeedbackProvider above it');
  return feedback;
};
