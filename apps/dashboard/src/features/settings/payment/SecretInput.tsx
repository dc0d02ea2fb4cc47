import { SECRET_MASK } from '@rampart/contracts';
import Button from 'antd/es/button';
import Password from 'antd/es/input/Password';
import TextArea from 'antd/es/input/TextArea';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';

export const PEM_STYLE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 };

interface SecretInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  /** The form checks a secret when it is left, not when Replace empties it. */
  onBlur?: () => void;
  /** The server holds a value (it answered the mask). */
  stored: boolean;
  /** PEM text: a monospace text area while it is typed. */
  pem: boolean;
}

/**
 * A write-only field: a stored value shows as the mask until "Replace" empties it for a new one;
 * "Keep stored" puts the mask back, which the server reads as "keep".
 */
export const SecretInput = ({ id, value = '', onChange, onBlur, stored, pem }: SecretInputProps) => {
  const { t } = useTranslation();
  if (stored && value === SECRET_MASK)
    return (
      <Space.Compact style={{ width: '100%' }}>
        <Password id={id} value={SECRET_MASK} readOnly visibilityToggle={false} />
        <Button onClick={() => onChange?.('')}>{t('paymentSettings.replace')}</Button>
      </Space.Compact>
    );
  const keep = stored && (
    <Button size="small" type="link" style={{ padding: 0 }} onClick={() => onChange?.(SECRET_MASK)}>
      {t('paymentSettings.keepStored')}
    </Button>
  );
  return (
    <>
      {pem ? (
        <TextArea
          id={id}
          value={value}
          onChange={(event) => onChange?.(event.target.value)}
          onBlur={onBlur}
          autoSize={{ minRows: 4, maxRows: 12 }}
          spellCheck={false}
          autoComplete="off"
          autoFocus={stored}
          style={PEM_STYLE}
          placeholder="-----BEGIN PRIVATE KEY-----"
        />
      ) : (
        <Password
          id={id}
          value={value}
          onChange={(event) => onChange?.(event.target.value)}
          onBlur={onBlur}
          autoComplete="new-password"
          autoFocus={stored}
        />
      )}
      {keep}
    </>
  );
};
