// Viewport animations honour the user's "reduce motion" setting: with it, the canvas jumps instead
// of gliding. (The browser tests run with reduced motion, so a click never lands mid-animation.)
export function motionMs(ms: number): number {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return ms;
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : ms;
}
