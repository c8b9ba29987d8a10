// For parts of the canvas the first paint does not need (the minimap: a rect per node, redrawn as
// React Flow measures them): false until the browser has painted the canvas once and gone idle, then
// true for good. A big graph's first render then pays for its nodes and edges only.
import { useEffect, useState } from 'react';

/** Longest wait for an idle moment after the first frame. */
const IDLE_TIMEOUT_MS = 1000;

export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    let idle: number | undefined;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      if (typeof requestIdleCallback === 'function')
        idle = requestIdleCallback(() => setReady(true), { timeout: IDLE_TIMEOUT_MS });
      else timer = window.setTimeout(() => setReady(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (idle !== undefined) cancelIdleCallback(idle);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}
