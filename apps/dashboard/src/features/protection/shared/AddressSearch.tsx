import Input from 'antd/es/input';
import { useState } from 'react';

interface AddressSearchProps {
  'aria-label': string;
  /** Whether a typed value may be sent; a value that may not marks the box and is not searched. */
  accepts: (value: string) => boolean;
  onSearch: (value: string | undefined) => void;
}

/** A search box for an address: the master refuses malformed ones, so they are caught here. */
export const AddressSearch = ({ 'aria-label': label, accepts, onSearch }: AddressSearchProps) => {
  const [wrong, setWrong] = useState(false);
  return (
    <Input.Search
      allowClear
      aria-label={label}
      aria-invalid={wrong}
      status={wrong ? 'error' : undefined}
      placeholder={label}
      style={{ width: 220 }}
      onChange={() => setWrong(false)}
      onSearch={(text) => {
        const value = text.trim();
        if (value !== '' && !accepts(value)) {
          setWrong(true);
          return;
        }
        onSearch(value || undefined);
      }}
    />
  );
};
