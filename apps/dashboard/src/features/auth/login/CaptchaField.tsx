import type { ImageCaptcha } from '@rampart/contracts';
import { useTranslation } from 'react-i18next';
import { PlainField } from './PlainField.tsx';
import { captchaImageSrc } from './useImageCaptcha.ts';

interface CaptchaFieldProps {
  image: ImageCaptcha | null;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
}

/** The captcha text input beside its image; clicking the image fetches a new one. */
export const CaptchaField = ({ image, value, error, onChange, onRefresh }: CaptchaFieldProps) => {
  const { t } = useTranslation();
  return (
    <PlainField
      label={t('auth.captcha.label')}
      placeholder={t('auth.captcha.placeholder')}
      autoComplete="off"
      value={value}
      error={error}
      onChange={onChange}
      addon={
        <button
          type="button"
          className="rp-captcha-image"
          onClick={onRefresh}
          title={t('auth.captcha.refresh')}
          aria-label={t('auth.captcha.refresh')}
        >
          {image && (
            <img
              src={captchaImageSrc(image.svg)}
              alt={t('auth.captcha.image')}
              data-testid="captcha-image"
              height={32}
              width={112}
            />
          )}
        </button>
      }
    />
  );
};
