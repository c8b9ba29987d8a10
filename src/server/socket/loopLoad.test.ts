import { describe, expect, it } from 'vitest';
import { LoopLoad } from './loopLoad.ts';

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* keep the loop busy */
  }
}

describe('LoopLoad', () => {
  it('sees a loop kept busy by other work, and leaves the hub’s own time out', () => {
    let hubMs = 0;
    const others = new LoopLoad(() => 0, 50);
    const hubOnly = new LoopLoad(() => hubMs, 50);
    spin(120);
    hubMs = 120; // the same busy time, reported as the hub's own turns
    expect(others.others()).toBeGreaterThan(0.8);
    expect(hubOnly.others()).toBeLessThan(0.2);
  });

  it('an idle loop reads near zero', async () => {
    const load = new LoopLoad(() => 0, 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(load.others()).toBeLessThan(0.5);
  });
});
