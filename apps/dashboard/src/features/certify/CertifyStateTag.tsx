import type { CertifyState } from '@rampart/contracts';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';

const COLOR: Record<CertifyState, string> = { pending: 'gold', approved: 'green', rejected: 'red' };

export const CertifyStateTag = ({ state }: { state: CertifyState }) => {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[state]} data-testid="certify-state">
      {t(`certify.stateName.${state}`)}
    </Tag>
  );
};
