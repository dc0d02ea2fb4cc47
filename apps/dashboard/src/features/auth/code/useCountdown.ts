import { useCallback, useEffect, useState } from 'react';

/** Seconds left before a code may be sent again; ticks down once a second. */
export const useCountdown = () => {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  const start = useCallback((from: number) => setSeconds(Math.max(0, Math.floor(from))), []);
  return { seconds, start };
};
