export const certsEnUS = {
  certs: {
    upload: 'Upload certificate',
    uploadSubmit: 'Upload',
    uploaded: 'The certificate was uploaded',
    download: 'Download certificate',
    inUse: 'Sites use this certificate; switch them to another one before deleting it',
    delete: 'Delete',
    deleted: 'The certificate was deleted',
    confirmDelete: 'Delete certificate {{name}}? Only a certificate no site uses can be deleted.',
    expired: 'Expired',
    daysLeft_one: '{{count}} day left',
    daysLeft_other: '{{count}} days left',
    column: {
      name: 'Name',
      names: 'DNS names',
      issuer: 'Issuer',
      expiry: 'Expires',
      sites: 'Sites using it',
      actions: 'Actions',
    },
    field: {
      cert: 'Certificate (PEM, leaf first, then the chain)',
      certFile: 'Certificate file',
      key: 'Private key (PEM)',
      keyFile: 'Private key file',
    },
    rule: {
      cert: 'Paste the PEM certificate followed by its chain (at most 64 KiB)',
      key: 'Paste the PEM private key of the certificate (at most 16 KiB)',
    },
  },
};
