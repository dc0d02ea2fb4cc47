import FullscreenExitOutlined from '@ant-design/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/FullscreenOutlined';
import { useTranslation } from 'react-i18next';
import { HeaderButton } from './HeaderButton.tsx';
import { useFullscreen } from './useFullscreen.ts';

/** Spec §2: the fullscreen toggle (the header shows it on desktop only). */
export const FullscreenButton = () => {
  const { t } = useTranslation();
  const { active, toggle } = useFullscreen();
  return (
    <HeaderButton label={t(active ? 'layout.header.exitFullscreen' : 'layout.header.fullscreen')} onClick={toggle}>
      {active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
    </HeaderButton>
  );
};
