import Input from 'antd/es/input';

/** A search box for one filter: the trimmed text on search or Enter, undefined once cleared. */
export const SearchField = ({
  label,
  width = 180,
  onSearch,
}: {
  label: string;
  width?: number;
  onSearch: (value: string | undefined) => void;
}) => (
  <Input.Search
    allowClear
    aria-label={label}
    placeholder={label}
    style={{ width }}
    onSearch={(value) => onSearch(value.trim() || undefined)}
  />
);
