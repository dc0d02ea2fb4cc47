import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  cert: string;
  key: string;
}

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A certificate for the names (an IP address becomes an IP SAN), signed by `issuer` or self-signed, made by openssl in a temp dir. */
export function makeCert(names: string[], options: { issuer?: TestCert; ca?: boolean } = {}): TestCert {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-cert-'));
  const file = (name: string) => join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  try {
    const extensions = [
      '-addext',
      `subjectAltName=${names.map((name) => (isIP(name) ? `IP:${name}` : `DNS:${name}`)).join(',')}`,
      ...(options.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE'] : []),
    ];
    const subject = ['-subj', `/CN=${names[0]}`];
    if (!options.issuer) {
      openssl([
        'req',
        '-x509',
        ...NEW_KEY,
        '-keyout',
        file('key.pem'),
        '-out',
        file('cert.pem'),
        ...subject,
        '-days',
        '30',
        ...extensions,
      ]);
    } else {
      writeFileSync(file('ca.pem'), options.issuer.cert);
      writeFileSync(file('ca.key'), options.issuer.key);
      openssl([
        'req',
        '-new',
        ...NEW_KEY,
        '-keyout',
        file('key.pem'),
        '-out',
        file('req.csr'),
        ...subject,
        ...extensions,
      ]);
      openssl([
        'x509',
        '-req',
        '-in',
        file('req.csr'),
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca.key'),
        '-CAcreateserial',
        '-out',
        file('cert.pem'),
        '-days',
        '30',
        '-copy_extensions',
        'copy',
      ]);
    }
    return { cert: readFileSync(file('cert.pem'), 'utf8'), key: readFileSync(file('key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
