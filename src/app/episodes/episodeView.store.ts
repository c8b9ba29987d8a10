// What the timeline's Episodes view shows (open, Compare or Plot, which series, which two episodes).
// Apart from the run store: these are the user's choices, kept across runs; the State panel's plot
// button sets them too.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { editorStore } from '../store/editor.store.ts';
import { TIMELINE_TAB } from '../run/timelineTab.ts';
import type { SeriesKey } from './series.ts';

export type EpisodeViewTab = 'compare' | 'plot';

export interface EpisodeViewState {
  open: boolean;
  tab: EpisodeViewTab;
  /** Series for Compare and Plot (a slot or a viewer's number); null = the first one offered. */
  series: SeriesKey | null;
  episodeA: number;
  episodeB: number;
}

export const episodeViewStore = createStore<EpisodeViewState>()(() => ({
  open: false,
  tab: 'compare',
  series: null,
  episodeA: 1,
  episodeB: 2,
}));

export function useEpisodeView<T>(selector: (s: EpisodeViewState) => T): T {
  return useStore(episodeViewStore, selector);
}

export const setEpisodeView = (patch: Partial<EpisodeViewState>) => episodeViewStore.setState(patch);

/** Opens the timeline's Episodes view on a series (State panel slot row, timeline). */
export function openEpisodeView(tab: EpisodeViewTab, series: SeriesKey | null): void {
  setEpisodeView({ open: true, tab, ...(series !== null ? { series } : {}) });
  editorStore.getState().setDrawerTab(TIMELINE_TAB);
}
