/** The GeoIP database section of /sys/op. */
export const geoipEnUS = {
  geoip: {
    tab: 'GeoIP database',
    help: 'Edges look the country of each client address up in this MaxMind-format database (.mmdb): for country conditions in ACLs and CC rules, and for the country in the access log. Upload a newer or commercial database to use it in place of the bundled one.',
    none: 'No GeoIP database: country conditions never hold and the log shows no countries.',
    source: 'Source',
    sourceBundled: 'Bundled with the master',
    sourceUploaded: 'Uploaded',
    name: 'File',
    type: 'Database type',
    sha256: 'SHA-256',
    size: 'Size',
    builtAt: 'Built',
    uploadedAt: 'Uploaded',
    file: 'MaxMind DB file (.mmdb)',
    fileRule: 'Choose a .mmdb file',
    upload: 'Upload',
    uploaded: 'The database was replaced; edges load it with the next config.',
    restore: 'Use the bundled database',
    restoreConfirm: 'Replace the uploaded database with the one the master ships?',
    restored: 'The bundled database is in use again.',
  },
};
