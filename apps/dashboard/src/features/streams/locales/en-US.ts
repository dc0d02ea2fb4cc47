export const streamsEnUS = {
  streams: {
    field: { listenPort: 'Listen port', protocol: 'Protocol', proxyProtocol: 'PROXY protocol to the origin' },
    list: {
      port: 'Search by port',
      add: 'Add forwarding',
      actions: 'Actions',
      edit: 'Edit',
    },
    add: { title: 'Add forwarding' },
    edit: { title: 'Forwarding on port {{port}}' },
  },
};
