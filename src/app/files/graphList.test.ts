// The saved-graph list boot waits for: an answer is stored and returned, a failure is kept as the
// explorer's message with an empty list, and either way the list counts as loaded.
import { afterEach, describe, expect, it } from 'vitest';
import { graphListStore, loadGraphList } from './graphList.ts';

afterEach(() => graphListStore.setState({ list: [], error: null, loaded: false, root: null }));

describe('loadGraphList', () => {
  it('stores the answer it was given and resolves with it', async () => {
    const answer = [{ _id: 'a' }, { _id: 'team/b', folder: 'team' }];
    await expect(loadGraphList(Promise.resolve(answer))).resolves.toEqual(answer);
    expect(graphListStore.getState()).toEqual({ list: answer, error: null, loaded: true, root: null });
  });

  it('keeps the last list and says why when a fetch fails', async () => {
    await loadGraphList(Promise.resolve([{ _id: 'a' }]));
    await expect(loadGraphList(Promise.reject(new Error('server unreachable')))).resolves.toEqual([]);
    expect(graphListStore.getState()).toEqual({
      list: [{ _id: 'a' }],
      error: 'server unreachable',
      loaded: true,
      root: null,
    });
  });

  it('an older answer that arrives after a newer one does not replace it', async () => {
    let answerOld: (v: unknown) => void = () => {};
    const old = loadGraphList(new Promise((r) => (answerOld = r)));
    await loadGraphList(Promise.resolve([{ _id: 'new' }]));
    answerOld([{ _id: 'old' }]);
    await old;
    expect(graphListStore.getState().list).toEqual([{ _id: 'new' }]);
  });

  it('reads a non-list answer as no graphs', async () => {
    await expect(loadGraphList(Promise.resolve({ unexpected: true }))).resolves.toEqual([]);
    expect(graphListStore.getState().list).toEqual([]);
  });
});
