import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BUY_PACKAGE_PATH } from './packageStanding.ts';

/** Above a list whose add button would be refused: a package is needed, and where to buy one. */
export const PackageRequiredNotice = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="package-required"
      style={{ marginBottom: 16 }}
      title={t('sites.package.required')}
      action={
        <Button type="primary" size="small" icon={<ShoppingCartOutlined />} onClick={() => navigate(BUY_PACKAGE_PATH)}>
          {t('sites.package.buy')}
        </Button>
      }
    />
  );
};
