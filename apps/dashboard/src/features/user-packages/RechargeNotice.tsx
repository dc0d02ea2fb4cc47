import Alert from 'antd/es/alert';
import { RechargeLink } from '../finance/RechargeLink.tsx';

/** A balance too short for a payment: why, and where to recharge (with the way back here). */
export const RechargeNotice = ({ text }: { text: string }) => (
  <Alert type="warning" showIcon data-testid="balance-short" title={text} action={<RechargeLink />} />
);
