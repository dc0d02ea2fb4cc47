import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface HeaderButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  label: string;
  children: ReactNode;
}

/** An icon button of the header; its label is its accessible name and tooltip. */
export const HeaderButton = ({ label, children, className, ...button }: HeaderButtonProps) => (
  <button
    type="button"
    aria-label={label}
    title={label}
    className={className ? `rp-header-button ${className}` : 'rp-header-button'}
    {...button}
  >
    {children}
  </button>
);
