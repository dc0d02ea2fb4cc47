import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BUY_PACKAGE_PATH } from './packageStanding.ts';

/** A list's add button; while the account needs a package it says so and leads to the buy page instead. */
export const AddButton = ({
  blocked,
  onAdd,
  children,
}: {
  blocked: boolean;
  onAdd: () => void;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!blocked)
    return (
      <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
        {children}
      </Button>
    );
  return (
    <Tooltip title={t('sites.package.required')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(BUY_PACKAGE_PATH)}>
        {children}
      </Button>
    </Tooltip>
  );
};
