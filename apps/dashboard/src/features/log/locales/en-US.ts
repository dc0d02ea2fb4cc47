export const logEnUS = {
  log: {
    filter: 'Filter by message or URL',
    clear: 'Clear',
    empty: 'Nothing went wrong in this tab yet',
    columns: { time: 'Time', kind: 'Kind', message: 'Message', url: 'URL' },
    kinds: { error: 'Uncaught error', rejection: 'Rejected promise', request: 'Failed request' },
  },
};
