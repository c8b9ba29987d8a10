// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ndText, pictureSize, ndInfoOf } from './ndarray.ts';
import { NdArrayView } from './NdArrayView.tsx';
import { viewerLine, viewerPicture } from '../run/viewerLine.ts';
import { formatValue } from '../run/slotLine.ts';

// A real 1×1 PNG, as the server's encoder makes them.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const image = {
  $ndarray: {
    dtype: 'uint8',
    shape: [8, 8, 3],
    min: 0,
    max: 210,
    head: [0, 0, 200],
    kind: 'image',
    png: PNG,
  },
};
const depth = {
  $ndarray: {
    dtype: 'float32',
    shape: [240, 320],
    min: 0.5,
    max: 3.375,
    head: [0.5],
    kind: 'depth',
    png: PNG,
  },
};
const vector = {
  $ndarray: {
    dtype: 'float64',
    shape: [10],
    min: 1.5,
    max: 10,
    head: [1.5, 2, 3, 4, 5, 6, 7, 8],
    kind: 'array',
  },
};

afterEach(cleanup);

describe('NdArrayView', () => {
  it('draws an image with crisp enlarged pixels and a dtype·shape caption', () => {
    render(<NdArrayView value={image} size="node" />);
    const img = screen.getByTestId('ndarray-image') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(PNG);
    // 8×8 in a 128 box: enlarged 16× with nearest-neighbour pixels.
    expect([img.width, img.height]).toEqual([128, 128]);
    expect(img.style.imageRendering).toBe('pixelated');
    expect(screen.getByTestId('ndarray').textContent).toContain('uint8 [8×8×3]');
    expect(screen.getByTestId('ndarray').dataset.kind).toBe('image');
  });

  it('draws a depth map scaled down, with its min and max', () => {
    render(<NdArrayView value={depth} size="full" />);
    const img = screen.getByTestId('ndarray-image') as HTMLImageElement;
    expect([img.width, img.height]).toEqual([320, 240]);
    expect(img.style.imageRendering).toBe('auto');
    expect(screen.getByTestId('ndarray').textContent).toBe('float32 [240×320]min 0.5 · max 3.375');
  });

  it('shows an array without a picture as dtype [shape] and its first values', () => {
    render(<NdArrayView value={vector} />);
    expect(screen.queryByTestId('ndarray-image')).toBeNull();
    expect(screen.getByTestId('ndarray').textContent).toBe('float64 [10] [1.5, 2, 3, 4, 5, 6, 7, 8, …]');
  });

  it('a thumbnail opens the full view in a dialog', () => {
    render(<NdArrayView value={image} size="thumb" />);
    const thumb = screen.getByTestId('ndarray-image') as HTMLImageElement;
    expect(thumb.height).toBe(24);
    fireEvent.click(screen.getByTestId('ndarray'));
    const dialog = screen.getByTestId('ndarray-dialog');
    expect(dialog.querySelector('img')?.getAttribute('height')).toBe('360');
  });

  it('never puts anything but a PNG data URL in <img src>, and ignores non-summaries', () => {
    const hostile = { $ndarray: { ...image.$ndarray, png: 'javascript:alert(1)' } };
    render(<NdArrayView value={hostile} />);
    expect(screen.queryByTestId('ndarray-image')).toBeNull();
    expect(screen.getByTestId('ndarray').textContent).toContain('uint8 [8×8×3]');
    cleanup();
    const { container } = render(<NdArrayView value={{ $ndarray: 'nope' }} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('array text where values are one line', () => {
  it('viewer lines and slot values read dtype and shape, not the JSON with its PNG', () => {
    expect(viewerLine({ image })).toBe('uint8 [8×8×3]');
    expect(viewerLine({ depth, label: 'cam' })).toBe(
      'depth: float32 [240×320] min 0.5 · max 3.375 · label: cam',
    );
    expect(formatValue(vector)).toBe('float64 [10] [1.5, 2, 3, 4, 5, 6, 7, 8, …]');
    expect(ndText(ndInfoOf(image)!)).toBe('uint8 [8×8×3]');
  });

  it('a viewer’s picture is its first field with a PNG (the newest entry of an accumulated list)', () => {
    expect(viewerPicture({ text: 'hi', image })).toBe(image);
    expect(viewerPicture({ frames: [depth, image] })).toBe(image);
    expect(viewerPicture({ vector })).toBeUndefined();
  });

  it('pictureSize enlarges small pictures by a whole factor and shrinks large ones to fit', () => {
    expect(pictureSize(8, 8, 28)).toEqual({ width: 24, height: 24, pixelated: true });
    // Between 1× and 2× it stays at its own size (no blurry fractional enlargement).
    expect(pictureSize(100, 50, 128)).toEqual({ width: 50, height: 100, pixelated: false });
    expect(pictureSize(480, 640, 128)).toEqual({ width: 128, height: 96, pixelated: false });
  });
});
