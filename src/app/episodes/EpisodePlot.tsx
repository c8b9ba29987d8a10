// One series (a slot's number or item count, or a viewer's number) over the run's steps, drawn by
// uPlot on a canvas, with a dashed line where each episode starts. uPlot sets styles through the
// CSSOM only (no style attributes, no eval), so it runs under the app's CSP.
import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Episode } from './episodes.ts';

/**
 * The plot fills its box (the drawer's free height), never smaller than this: room for four or
 * five labelled ticks on the y axis and the x axis's labels. A shorter drawer scrolls the view
 * that holds the plot instead of squashing it.
 */
export const PLOT_MIN_HEIGHT = 140;

/** x = steps, y = values (null = no value at that step); boundaries = first step of episodes 2…. */
export function plotData(steps: readonly number[], ys: readonly (number | null)[]): uPlot.AlignedData {
  return [Float64Array.from(steps), ys.slice()] as unknown as uPlot.AlignedData;
}

export function episodeStarts(episodes: readonly Episode[]): { step: number; index: number }[] {
  return episodes.slice(1).map((e) => ({ step: e.steps[0]!, index: e.index }));
}

function boundaryPlugin(starts: () => { step: number; index: number }[]): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u;
          const { top, height } = u.bbox;
          ctx.save();
          ctx.strokeStyle = 'rgba(244, 114, 182, 0.7)';
          ctx.fillStyle = 'rgba(244, 114, 182, 0.9)';
          ctx.lineWidth = 1;
          ctx.setLineDash([4, 3]);
          ctx.font = `${10 * devicePixelRatio}px sans-serif`;
          for (const b of starts()) {
            const x = Math.round(u.valToPos(b.step - 0.5, 'x', true));
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            ctx.fillText(`ep ${b.index}`, x + 3, top + 10 * devicePixelRatio);
          }
          ctx.restore();
        },
      ],
    },
  };
}

export function EpisodePlot({
  label,
  steps,
  ys,
  episodes,
}: {
  label: string;
  steps: readonly number[];
  ys: readonly (number | null)[];
  episodes: readonly Episode[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const starts = useRef(episodeStarts(episodes));
  starts.current = episodeStarts(episodes);

  // One uPlot per series label; data updates go through setData.
  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return;
    const axis: uPlot.Axis = {
      stroke: '#a1a1aa',
      grid: { stroke: '#27272a', width: 1 },
      ticks: { stroke: '#3f3f46', width: 1 },
      font: '10px sans-serif',
    };
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: Math.max(PLOT_MIN_HEIGHT, el.clientHeight),
        scales: { x: { time: false } },
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        axes: [{ ...axis }, { ...axis, size: 44, space: 18 }],
        series: [
          { label: 'step' },
          { label, stroke: '#38bdf8', width: 1.5, spanGaps: false, points: { size: 3, stroke: '#38bdf8' } },
        ],
        plugins: [boundaryPlugin(() => starts.current)],
      },
      plotData([], []),
      el,
    );
    plot.current = u;
    const ro = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      const h = Math.max(PLOT_MIN_HEIGHT, el.clientHeight);
      if (w !== u.width || h !== u.height) u.setSize({ width: w, height: h });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [label]);

  useEffect(() => {
    const u = plot.current;
    if (!u || !host.current) return;
    u.setData(plotData(steps, ys));
    // What the canvas was given, read back from uPlot (the browser test checks it).
    const drawn = (u.data[1] ?? []) as (number | null | undefined)[];
    host.current.dataset.plotted = String(drawn.filter((y) => y !== null && y !== undefined).length);
  }, [steps, ys, label, episodes]);

  const points = ys.reduce<number>((n, y) => (y === null ? n : n + 1), 0);
  return (
    <div
      ref={host}
      className="min-w-0 flex-1 overflow-hidden"
      style={{ minHeight: PLOT_MIN_HEIGHT }}
      data-testid="episode-plot"
      data-series={label}
      data-steps={steps.length}
      data-points={points}
      data-boundaries={starts.current.length}
    />
  );
}
