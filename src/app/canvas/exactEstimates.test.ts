// The flow store's updateNodeInternals leaves out only the nodes whose estimated geometry the DOM
// confirms (handles still estimated, laid-out size equal), and still resolves a queued fitView.
// That React Flow then keeps boxes and edges where the estimate put them is checked in a browser
// by e2e/canvas-estimate.spec.ts.
import { describe, expect, it, vi } from 'vitest';
import type { InternalNode, ReactFlowState } from '@xyflow/react';
import { skipConfirmedEstimates, updatesToMeasure } from './exactEstimates.ts';

type Updates = Parameters<ReactFlowState['updateNodeInternals']>[0];

/** A laid-out node element: its size and its anchors (React Flow handle classes, data-handleid). */
const element = (width: number, height: number, anchors: [string, string][] = [['source', 'a']]) =>
  ({
    offsetWidth: width,
    offsetHeight: height,
    querySelectorAll: () =>
      anchors.map(([type, id]) => ({
        classList: { contains: (c: string) => c === type },
        getAttribute: () => id,
      })),
  }) as unknown as HTMLDivElement;

function node(id: string, opts: { estimated: boolean; width: number; height: number }): InternalNode {
  const handles = opts.estimated
    ? [{ id: 'a', type: 'source' as const, position: 'right', x: 0, y: 0 }]
    : undefined;
  return {
    id,
    position: { x: 0, y: 0 },
    data: {},
    measured: { width: opts.width, height: opts.height },
    internals: {
      positionAbsolute: { x: 0, y: 0 },
      z: 0,
      userNode: { id, position: { x: 0, y: 0 }, data: {}, ...(handles ? { handles } : {}) },
      handleBounds: { source: [], target: [] },
    },
  } as unknown as InternalNode;
}

const lookup = new Map<string, InternalNode>([
  ['box', node('box', { estimated: true, width: 180, height: 64 })],
  ['tall', node('tall', { estimated: true, width: 180, height: 64 })],
  ['full', node('full', { estimated: false, width: 180, height: 64 })],
]);

const updatesOf = (...entries: [string, number, number][]): Updates =>
  new Map(entries.map(([id, w, h]) => [id, { id, nodeElement: element(w, h), force: true }]));

describe('updatesToMeasure', () => {
  it('drops a box whose laid-out size is its estimate and keeps everything else', () => {
    const kept = updatesToMeasure(
      updatesOf(['box', 180, 64], ['tall', 180, 82], ['full', 180, 64], ['unknown', 10, 10]),
      lookup,
    );
    expect([...kept.keys()]).toEqual(['tall', 'full', 'unknown']);
  });

  it('keeps a box of the estimated size whose anchors differ from the estimate', () => {
    const renamed = new Map([
      ['box', { id: 'box', nodeElement: element(180, 64, [['source', 'b']]), force: true }],
    ]);
    expect([...updatesToMeasure(renamed, lookup).keys()]).toEqual(['box']);
    const extra = new Map([
      [
        'box',
        {
          id: 'box',
          nodeElement: element(180, 64, [
            ['source', 'a'],
            ['target', 'x'],
          ]),
          force: true,
        },
      ],
    ]);
    expect([...updatesToMeasure(extra, lookup).keys()]).toEqual(['box']);
  });

  it('returns the same map when nothing is confirmed', () => {
    const updates = updatesOf(['tall', 180, 82], ['full', 180, 64]);
    expect(updatesToMeasure(updates, lookup)).toBe(updates);
  });
});

describe('skipConfirmedEstimates', () => {
  function flowStore(fitViewQueued: boolean) {
    const original = vi.fn();
    let state = {
      updateNodeInternals: original,
      nodeLookup: lookup,
      fitViewQueued,
    } as unknown as ReactFlowState;
    const store = {
      getState: () => state,
      setState: (partial: Partial<ReactFlowState>) => {
        state = { ...state, ...partial };
      },
    };
    return { store, original };
  }

  it('passes on only the updates that can change something', () => {
    const { store, original } = flowStore(false);
    skipConfirmedEstimates(store);
    store.getState().updateNodeInternals(updatesOf(['box', 180, 64], ['tall', 180, 82]));
    expect(original).toHaveBeenCalledTimes(1);
    expect([...(original.mock.calls[0]![0] as Updates).keys()]).toEqual(['tall']);
    store.getState().updateNodeInternals(updatesOf(['box', 180, 64]));
    expect(original).toHaveBeenCalledTimes(1);
  });

  it('lets one confirmed node through while the initial fitView is queued, so it resolves', () => {
    const { store, original } = flowStore(true);
    skipConfirmedEstimates(store);
    store.getState().updateNodeInternals(updatesOf(['box', 180, 64]));
    expect(original).toHaveBeenCalledTimes(1);
    expect([...(original.mock.calls[0]![0] as Updates).keys()]).toEqual(['box']);
  });

  it('wraps a store once', () => {
    const { store, original } = flowStore(false);
    skipConfirmedEstimates(store);
    const first = store.getState().updateNodeInternals;
    skipConfirmedEstimates(store);
    expect(store.getState().updateNodeInternals).toBe(first);
    store.getState().updateNodeInternals(updatesOf(['full', 180, 64]));
    expect(original).toHaveBeenCalledTimes(1);
  });
});
