import type { ImageCaptcha } from '@rampart/contracts';
import { useCallback, useRef, useState } from 'react';
import { useAuthApi } from '../api.ts';

/**
 * The image captcha of the login form. It appears once the server asks for it (login policy or a
 * `captcha_required` answer) and stays; each image is good for one attempt, so failures refresh it.
 */
export const useImageCaptcha = () => {
  const api = useAuthApi();
  const [image, setImage] = useState<ImageCaptcha | null>(null);
  const [required, setRequired] = useState(false);
  const requiredRef = useRef(false);
  const imageRef = useRef<ImageCaptcha | null>(null);

  const refresh = useCallback(async () => {
    try {
      const next = await api.imageCaptcha();
      imageRef.current = next;
      setImage(next);
    } catch {
      // the HTTP client has shown the failure; the old image stays
    }
  }, [api]);

  const require = useCallback(async () => {
    requiredRef.current = true;
    setRequired(true);
    if (!imageRef.current) await refresh();
  }, [refresh]);

  return {
    required,
    image,
    refresh,
    require,
    isRequired: () => requiredRef.current,
    currentId: () => imageRef.current?.captcha,
  };
};

export const captchaImageSrc = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
