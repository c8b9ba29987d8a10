// The State panel's per-slot button: opens the timeline's Episodes view plotting this slot.
import { ChartLine } from 'lucide-react';
import { openEpisodeView } from './episodeView.store.ts';
import { slotKey } from './series.ts';

export function PlotSlotButton({ container, slot }: { container: string; slot: string }) {
  return (
    <button
      type="button"
      data-testid={`plot-slot-${container}-${slot}`}
      title={`Plot ${container}.${slot} over the run's steps (Timeline › Episodes)`}
      onClick={() => openEpisodeView('plot', slotKey(container, slot))}
      className="text-zinc-600 hover:text-sky-400"
    >
      <ChartLine size={10} />
    </button>
  );
}
