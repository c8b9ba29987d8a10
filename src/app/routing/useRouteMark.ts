// For data edges on the canvas: the route mark of one edge, selecting only its port's route and
// failure from the run store (stable objects), so a route re-renders the edges of that port only.
import { useMemo } from 'react';
import { useRun } from '../run/run.store.ts';
import { useEditor } from '../store/editor.store.ts';
import { markOf, shownFailure, shownRoute, type RouteMark } from './routeMarks.ts';

export function useRouteMark(node: string, port: string, edgeId: string, conditional: boolean): RouteMark {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const route = useRun((s) => shownRoute(s, node, port));
  const failure = useRun((s) => shownFailure(s, node, port));
  const mine = runTab === null || runTab === activeTabId;
  return useMemo(
    () => (mine ? markOf(route, edgeId, conditional, failure) : markOf(undefined, edgeId, conditional)),
    [mine, route, edgeId, conditional, failure],
  );
}
