// The minimap while the far view is shown. React Flow's MiniMap draws the nodes React Flow holds, and
// far out it holds none (and one SVG rect per node, each with its own store selector run on every pan
// frame, is what the far view is there to avoid); this one draws the far scene's boxes into a small
// canvas after each far frame, with the viewport, in the same place and colours. Dragging in it (or a
// click) moves the view there; the wheel zooms.
import { useEffect, useRef } from 'react';
import { Panel, useReactFlow } from '@xyflow/react';
import type { FarController } from './farController.ts';
import type { FarScene } from './farScene.ts';

const WIDTH = 160;
const HEIGHT = 110;
/** As the canvas's MiniMap (Canvas.tsx MINIMAP_STYLE, minimapColor). */
const STYLE = { background: '#18181b', width: WIDTH, height: HEIGHT, marginLeft: 56 };
const NODE = '#52525b';
const CONTAINER = '#7c3aed';
const MASK = 'rgba(9, 9, 11, 0.6)';
const WHEEL_STEP = 1.2;

const boundsCache = new WeakMap<FarScene, [number, number, number, number]>();
function sceneBounds(scene: FarScene): [number, number, number, number] {
  let b = boundsCache.get(scene);
  if (!b) {
    b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const it of scene.items) {
      b[0] = Math.min(b[0], it.x);
      b[1] = Math.min(b[1], it.y);
      b[2] = Math.max(b[2], it.x + it.w);
      b[3] = Math.max(b[3], it.y + it.h);
    }
    boundsCache.set(scene, b);
  }
  return b;
}

/** The flow rectangle the minimap shows (the scene and the view, padded as React Flow's minimap is). */
function minimapBox(c: FarController): { x: number; y: number; scale: number } {
  const { transform, width, height } = c.flow.getState();
  const [tx, ty, k] = transform;
  const view = [-tx / k, -ty / k, (width - tx) / k, (height - ty) / k] as const;
  const s = c.scene.items.length ? sceneBounds(c.scene) : view;
  const x0 = Math.min(s[0], view[0]);
  const y0 = Math.min(s[1], view[1]);
  const w = Math.max(s[2], view[2]) - x0;
  const h = Math.max(s[3], view[3]) - y0;
  const scale = Math.max(w / WIDTH, h / HEIGHT) * 1.06;
  return { x: x0 - (WIDTH * scale - w) / 2, y: y0 - (HEIGHT * scale - h) / 2, scale };
}

export function FarMinimap({ controller }: { controller: FarController }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const flow = useReactFlow();
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const draw = () => {
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== WIDTH * dpr) {
        canvas.width = WIDTH * dpr;
        canvas.height = HEIGHT * dpr;
      }
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, WIDTH, HEIGHT);
      const box = minimapBox(controller);
      const at = (x: number, y: number) => [(x - box.x) / box.scale, (y - box.y) / box.scale] as const;
      for (const [kind, fill] of [
        ['node', NODE],
        ['container', CONTAINER],
      ] as const) {
        ctx.beginPath();
        for (const it of controller.scene.items) {
          if ((it.kind === 'container') !== (kind === 'container')) continue;
          const [x, y] = at(it.x, it.y);
          ctx.rect(x, y, Math.max(0.5, it.w / box.scale), Math.max(0.5, it.h / box.scale));
        }
        ctx.fillStyle = fill;
        ctx.fill();
      }
      const { transform, width, height } = controller.flow.getState();
      const [tx, ty, k] = transform;
      const [vx, vy] = at(-tx / k, -ty / k);
      ctx.beginPath();
      ctx.rect(0, 0, WIDTH, HEIGHT);
      ctx.rect(vx, vy, width / k / box.scale, height / k / box.scale);
      ctx.fillStyle = MASK;
      ctx.fill('evenodd');
    };
    draw();
    const offDrawn = controller.onDrawn(draw);
    // Press or drag: the view's centre follows the pointer.
    const centreAt = (e: PointerEvent) => {
      const r = canvas.getBoundingClientRect();
      const box = minimapBox(controller);
      const zoom = controller.flow.getState().transform[2];
      void flow.setCenter(box.x + (e.clientX - r.left) * box.scale, box.y + (e.clientY - r.top) * box.scale, {
        zoom,
      });
    };
    const onDown = (e: PointerEvent) => {
      if (e.button !== 0) return;
      e.preventDefault();
      canvas.setPointerCapture(e.pointerId);
      centreAt(e);
    };
    const onMove = (e: PointerEvent) => {
      if (canvas.hasPointerCapture(e.pointerId)) centreAt(e);
    };
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const zoom = controller.flow.getState().transform[2];
      void flow.zoomTo(e.deltaY < 0 ? zoom * WHEEL_STEP : zoom / WHEEL_STEP);
    };
    canvas.addEventListener('pointerdown', onDown);
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      offDrawn();
      canvas.removeEventListener('pointerdown', onDown);
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('wheel', onWheel);
    };
  }, [controller, flow]);
  return (
    <Panel position="bottom-left" style={STYLE} className="sw-far-minimap">
      <canvas
        ref={ref}
        data-testid="far-minimap"
        width={WIDTH}
        height={HEIGHT}
        className="block h-full w-full"
      />
    </Panel>
  );
}
