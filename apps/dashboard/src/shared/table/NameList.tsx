/**
 * Domains, origins and other names of a cell: a name never breaks inside, the list breaks only
 * between names (and the table scrolls sideways before a single name would wrap).
 */
export const NameList = ({ names }: { names: readonly string[] }) => (
  <>
    {names.map((name, at) => (
      <span key={name} style={NO_WRAP}>
        {name}
        {at < names.length - 1 ? ', ' : ''}
      </span>
    ))}
  </>
);

const NO_WRAP = { whiteSpace: 'nowrap' } as const;
