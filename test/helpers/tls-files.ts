import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFiles {
  certificate: string;
  privateKey: string;
}

let made: TlsFiles | undefined;

/** A real self-signed certificate for localhost and its unencrypted key (PEM), made once by openssl. */
export function selfSignedTls(): TlsFiles {
  if (made) return made;
  const folder = mkdtempSync(join(tmpdir(), 'anima-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { cwd: folder, stdio: 'ignore' },
    );
    made = { certificate: readFileSync(join(folder, 'cert.pem'), 'utf8'), privateKey: readFileSync(join(folder, 'key.pem'), 'utf8') };
    return made;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
