import { useEffect, useState } from 'react';

/** A counter that advances every `ms` while `active`; stopped timers cost nothing. */
export function useTicker(active: boolean, ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return tick;
}
