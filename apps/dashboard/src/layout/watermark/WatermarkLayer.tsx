import { useMemo } from 'react';
import { WATERMARK, watermarkTile } from './watermark.ts';

/** The repeated tile over the whole console; it never takes clicks. */
export const WatermarkLayer = ({ text = WATERMARK.text }: { text?: string }) => {
  const tile = useMemo(() => watermarkTile(text), [text]);
  if (!tile) return null;
  const { chunkWidth, chunkHeight } = WATERMARK.options;
  return (
    <div
      data-testid="watermark"
      aria-hidden="true"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        pointerEvents: 'none',
        backgroundImage: `url(${tile})`,
        backgroundRepeat: 'repeat',
        backgroundSize: `${chunkWidth}px ${chunkHeight}px`,
      }}
    />
  );
};
