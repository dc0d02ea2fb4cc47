/** Spec §3 and §9: the watermark entity and its defaults. */
export interface WatermarkOptions {
  globalAlpha: number;
  font: string;
  /** Radians. */
  rotateAngle: number;
  chunkWidth: number;
  chunkHeight: number;
}

export interface Watermark {
  show: boolean;
  text: string;
  options: WatermarkOptions;
}

export const WATERMARK: Watermark = {
  show: false,
  text: 'Rampart',
  options: { globalAlpha: 0.1, font: '20px sans-serif', rotateAngle: -0.4, chunkWidth: 400, chunkHeight: 400 },
};

type TileContext = Pick<
  CanvasRenderingContext2D,
  'globalAlpha' | 'font' | 'fillStyle' | 'textAlign' | 'textBaseline' | 'translate' | 'rotate' | 'fillText'
>;

/** Draws the text once, rotated about the centre of one tile; the page repeats the tile. */
export const drawWatermarkTile = (context: TileContext, text: string, options: WatermarkOptions): void => {
  context.globalAlpha = options.globalAlpha;
  context.font = options.font;
  context.fillStyle = '#000';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.translate(options.chunkWidth / 2, options.chunkHeight / 2);
  context.rotate(options.rotateAngle);
  context.fillText(text, 0, 0);
};

/** A data URL of one tile, or null where the browser has no canvas. */
export const watermarkTile = (text: string, options: WatermarkOptions = WATERMARK.options): string | null => {
  const canvas = document.createElement('canvas');
  canvas.width = options.chunkWidth;
  canvas.height = options.chunkHeight;
  const context = canvas.getContext('2d');
  if (!context) return null;
  drawWatermarkTile(context, text, options);
  return canvas.toDataURL('image/png');
};
