// The one view of an array value (`$ndarray` summary) everywhere values are shown: the Image Viewer
// node, the State panel's value cells, container boxes. A picture (image, or depth map scaled
// min→black, max→white) is an <img> with its dtype·shape caption (and min/max for depth); small
// pictures are enlarged with crisp pixels. Arrays without a picture show dtype [shape] and their first
// values. A thumbnail opens the full view in a dialog.
import { useState } from 'react';
import { Modal } from './Modal.tsx';
import { ndCaption, ndHead, ndInfoOf, ndRange, pictureSize, type NdInfo } from './ndarray.ts';

const BOX = { thumb: 28, node: 128, full: 360 } as const;
export type NdArrayViewSize = keyof typeof BOX;

function Picture({ info, size }: { info: NdInfo & { png: string }; size: NdArrayViewSize }) {
  const [h = 0, w = 0] = info.shape;
  const d = pictureSize(h, w, BOX[size]);
  return (
    <img
      data-testid="ndarray-image"
      src={info.png}
      alt={`${info.kind === 'depth' ? 'depth map' : 'image'} ${ndCaption(info)}`}
      width={d.width}
      height={d.height}
      draggable={false}
      className="block shrink-0 rounded-sm border border-zinc-700 bg-black"
      style={{ imageRendering: d.pixelated ? 'pixelated' : 'auto' }}
    />
  );
}

/** Renders `value` when it is an array summary; anything else renders nothing (callers check first). */
export function NdArrayView({ value, size = 'full' }: { value: unknown; size?: NdArrayViewSize }) {
  const [open, setOpen] = useState(false);
  const info = ndInfoOf(value);
  if (!info) return null;
  const caption = ndCaption(info);
  const range = info.kind === 'depth' ? ndRange(info) : null;
  const common = {
    'data-testid': 'ndarray',
    'data-kind': info.kind,
    'data-dtype': info.dtype,
    'data-shape': info.shape.join(','),
  };
  if (!info.png) {
    return (
      <span
        {...common}
        className="min-w-0 truncate font-mono"
        title={`${caption} ${ndHead(info)} · ${ndRange(info)}`}
      >
        <span className="text-sky-300">{caption}</span> <span className="text-zinc-400">{ndHead(info)}</span>
      </span>
    );
  }
  const png = info as NdInfo & { png: string };
  if (size === 'thumb') {
    return (
      <>
        <button
          type="button"
          {...common}
          title={`${caption}${range ? ` · ${range}` : ''} (click to enlarge)`}
          onClick={(e) => {
            e.stopPropagation();
            setOpen(true);
          }}
          className="nodrag flex min-w-0 items-center gap-1 text-left"
        >
          <Picture info={png} size="thumb" />
          <span className="truncate text-[10px] text-zinc-400">
            {caption}
            {range ? ` · ${range}` : ''}
          </span>
        </button>
        {open && (
          <Modal title={caption} onClose={() => setOpen(false)} testId="ndarray-dialog">
            <NdArrayView value={value} size="full" />
          </Modal>
        )}
      </>
    );
  }
  if (size === 'node') {
    // On a canvas node the frame has one size whatever the picture's shape, and the caption one
    // line: the node never changes size between steps, so it never grows over its neighbours.
    return (
      <figure {...common} className="m-0 flex w-32 flex-col gap-0.5">
        <span className="flex h-32 w-32 items-center justify-center">
          <Picture info={png} size={size} />
        </span>
        <figcaption
          className="h-3.5 truncate font-mono text-[10px] leading-[14px] text-zinc-400"
          title={range ? `${caption} · ${range}` : caption}
        >
          {caption}
          {range ? ` · ${range}` : ''}
        </figcaption>
      </figure>
    );
  }
  return (
    <figure {...common} className="m-0 flex flex-col items-start gap-0.5">
      <Picture info={png} size={size} />
      <figcaption className="font-mono text-[10px] text-zinc-400">
        {caption}
        {range && <span className="block">{range}</span>}
      </figcaption>
    </figure>
  );
}

/** The node frame of a picture viewer before its first picture: the same size, so nothing moves. */
export function EmptyPictureFrame() {
  return (
    <figure className="m-0 flex w-32 flex-col gap-0.5" data-testid="ndarray-empty">
      <span className="flex h-32 w-32 items-center justify-center rounded-sm border border-dashed border-zinc-700 text-[10px] text-zinc-600">
        no image yet
      </span>
      <span className="h-3.5" />
    </figure>
  );
}
