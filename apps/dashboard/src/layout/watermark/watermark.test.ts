import { describe, expect, it } from 'vitest';
import { drawWatermarkTile, WATERMARK } from './watermark.ts';

describe('watermark', () => {
  it('is off by default with a 400x400 tile, alpha 0.1, angle -0.4 and a 20 px font', () => {
    expect(WATERMARK.show).toBe(false);
    expect(WATERMARK.text).toBe('Rampart');
    expect(WATERMARK.options).toMatchObject({ chunkWidth: 400, chunkHeight: 400, globalAlpha: 0.1, rotateAngle: -0.4 });
    expect(WATERMARK.options.font).toMatch(/^20px /);
  });

  it('draws the text rotated about the centre of the tile', () => {
    const calls: string[] = [];
    const context = {
      globalAlpha: 1,
      font: '',
      fillStyle: '',
      textAlign: 'start',
      textBaseline: 'alphabetic',
      translate: (x: number, y: number) => calls.push(`translate ${x} ${y}`),
      rotate: (angle: number) => calls.push(`rotate ${angle}`),
      fillText: (text: string) => calls.push(`text ${text}`),
    } as unknown as CanvasRenderingContext2D;
    drawWatermarkTile(context, 'alice', WATERMARK.options);
    expect(calls).toEqual(['translate 200 200', 'rotate -0.4', 'text alice']);
    expect(context.globalAlpha).toBe(0.1);
  });
});
