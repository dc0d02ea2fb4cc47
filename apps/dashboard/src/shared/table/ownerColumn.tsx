import type { ColumnType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { OwnerName } from './OwnerName.tsx';

/** A list row as the master returns it: `user_account` is the owner's account (list calls). */
export interface OwnedRow {
  user_id: number;
  user_account?: string | null | undefined;
}

/** The owner column of the admins' lists: the account name, the user id in a tooltip. */
export const ownerColumn = <Row extends OwnedRow>(t: TFunction): ColumnType<Row> => ({
  key: 'owner',
  dataIndex: 'user_id',
  title: t('common.owner.column'),
  render: (_userId: number, row: Row) => <OwnerName userId={row.user_id} account={row.user_account} />,
});
