import { describe, expect, it } from 'vitest';
import { createRunStore, viewerLineOf } from '../run/run.store.ts';
import { applyBatch, HANDLERS, PICTURE_HISTORY } from './handlers.ts';
import { ev } from './testEvents.testutil.ts';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const frame = (n: number) => ({
  $ndarray: { dtype: 'uint8', shape: [4, 4, 3], min: 0, max: n, head: [n], kind: 'image', png: PNG },
});

describe('viewer_data with an array picture', () => {
  it('keeps the picture with the line, per step, for the canvas node and for inspecting', () => {
    const store = createRunStore();
    HANDLERS.viewer_data(
      ev('viewer_data', 1, { node_id: 'img', step: 1, fields: { image: frame(1) } }),
      store,
    );
    HANDLERS.viewer_data(
      ev('viewer_data', 2, { node_id: 'img', step: 2, fields: { image: frame(2) } }),
      store,
    );
    const s = store.getState();
    expect(s.viewer.img).toEqual({ step: 2, text: 'uint8 [4×4×3]', picture: frame(2) });
    expect(viewerLineOf({ ...s, inspectedStep: 1 }, 'img')?.picture).toEqual(frame(1));
  });

  it('text-only viewers carry no picture', () => {
    const store = createRunStore();
    HANDLERS.viewer_data(ev('viewer_data', 1, { node_id: 't', step: 1, fields: { text: 'hello' } }), store);
    expect(store.getState().viewer.t).toEqual({ step: 1, text: 'hello' });
  });

  it('only the newest lines keep their pictures; older ones keep their text', () => {
    const store = createRunStore();
    const n = PICTURE_HISTORY + 5;
    const events = Array.from({ length: n }, (_, i) =>
      ev('viewer_data', i + 1, { node_id: 'img', step: i + 1, fields: { image: frame(i + 1) } }),
    );
    applyBatch(events, store);
    const history = store.getState().viewerHistory.img!;
    expect(history).toHaveLength(n);
    const withPicture = history.filter((l) => l.picture !== undefined).map((l) => l.step);
    expect(withPicture[0]).toBe(n - PICTURE_HISTORY + 1);
    expect(withPicture).toHaveLength(PICTURE_HISTORY);
    expect(history[0]).toEqual({ step: 1, text: 'uint8 [4×4×3]' });
  });
});
