import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface PlainFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> {
  label: string;
  error?: string;
  onChange: (value: string) => void;
  /** Shown beside the input (the captcha image). */
  addon?: ReactNode;
  /** A password input with a show/hide toggle. */
  secret?: boolean;
}

/** A labelled input with its validation message, styled like antd's without its code. */
export const PlainField = ({ label, error, onChange, addon, secret, type, ...input }: PlainFieldProps) => {
  const { t } = useTranslation();
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const errorId = `${id}-error`;
  return (
    <div className={error ? 'rp-field rp-field-invalid' : 'rp-field'}>
      <label htmlFor={id}>{label}</label>
      <div className="rp-field-row">
        <span className="rp-input">
          <input
            {...input}
            id={id}
            type={secret && !revealed ? 'password' : (type ?? 'text')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
          {secret && (
            <button
              type="button"
              className="rp-input-toggle"
              aria-pressed={revealed}
              onClick={() => setRevealed((shown) => !shown)}
            >
              {t(revealed ? 'auth.login.hidePassword' : 'auth.login.showPassword')}
            </button>
          )}
        </span>
        {addon}
      </div>
      <div className="rp-field-error" id={errorId} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
};
