// A panel loaded on first use: React.lazy for a module's named component export. Panels that the
// first paint of a graph does not show (node/container/edge inspectors, drawer tabs, palette,
// dialogs) are chunks of their own, so the editor's start-up bundle is parsed and run sooner.
import { lazy, type ComponentType } from 'react';

export function lazyNamed<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
