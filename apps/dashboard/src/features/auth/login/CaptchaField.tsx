import type { ImageCaptcha } from '@rampart/contracts';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { captchaImageSrc } from './useImageCaptcha.ts';

const IMAGE_STYLE = { height: 32, width: 112, padding: 0, border: 0, background: 'none', cursor: 'pointer' } as const;

/** The captcha text input beside its image; clicking the image fetches a new one. */
export const CaptchaField = ({ image, onRefresh }: { image: ImageCaptcha | null; onRefresh: () => void }) => {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('auth.captcha.label')} htmlFor="login_code" required>
      <Flex gap={8}>
        <Form.Item name="code" rules={[{ required: true, message: t('auth.captcha.required') }]} noStyle>
          <Input placeholder={t('auth.captcha.placeholder')} autoComplete="off" />
        </Form.Item>
        <button
          type="button"
          onClick={onRefresh}
          title={t('auth.captcha.refresh')}
          aria-label={t('auth.captcha.refresh')}
          style={IMAGE_STYLE}
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
      </Flex>
    </Form.Item>
  );
};
