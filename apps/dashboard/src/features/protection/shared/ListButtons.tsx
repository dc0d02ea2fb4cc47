import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';

interface ListButtonsProps {
  index: number;
  count: number;
  /** Names the row in the buttons' labels: "Line 2". */
  label: string;
  move?: (from: number, to: number) => void;
  remove: (index: number) => void;
  disabled?: boolean;
}

/** Move up, move down and remove for one row of an ordered list. */
export const ListButtons = ({ index, count, label, move, remove, disabled = false }: ListButtonsProps) => {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'inline-flex', gap: 2 }}>
      {move && (
        <>
          <Button
            type="text"
            icon={<ArrowUpOutlined />}
            aria-label={t('protection.list.up', { label })}
            disabled={disabled || index === 0}
            onClick={() => move(index, index - 1)}
          />
          <Button
            type="text"
            icon={<ArrowDownOutlined />}
            aria-label={t('protection.list.down', { label })}
            disabled={disabled || index === count - 1}
            onClick={() => move(index, index + 1)}
          />
        </>
      )}
      <Button
        type="text"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('protection.list.remove', { label })}
        disabled={disabled}
        onClick={() => remove(index)}
      />
    </span>
  );
};
