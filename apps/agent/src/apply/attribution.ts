import type { ApplyError } from '@rampart/contracts';

/** The first fatal message nginx printed, without the config directory, for reports. */
export function firstFatal(output: string): string {
  const line =
    output.split('\n').find((l) => /\[(emerg|alert|crit)\]/.test(l)) ??
    output.split('\n').find((l) => l.trim() !== '') ??
    'nginx failed without a message';
  return line
    .replace(/^.*?\[(emerg|alert|crit)\]\s*(\d+#\d+:\s*)?/, '')
    .replace(/\/\S*\/conf\/[^/\s]+\//g, '')
    .trim()
    .slice(0, 1900);
}

/**
 * Which site, stream or certificate an `nginx -t` failure comes from: nginx names the file (one
 * per site and stream) or the certificate path. Null when the fault is not in one of them.
 */
export function attributeTestFailure(output: string): ApplyError | null {
  const fatal = output.split('\n').filter((l) => /\[(emerg|alert|crit)\]/.test(l));
  for (const line of fatal) {
    const error = firstFatal(line);
    const file = /\/(sites|streams)\/(\d+)\.conf:\d+/.exec(line);
    if (file) return { kind: file[1] === 'sites' ? 'site' : 'stream', id: Number(file[2]), error };
    const cert = /certs\/(\d+)\.(?:pem|key)/.exec(line);
    if (cert) return { kind: 'cert', id: Number(cert[1]), error };
  }
  return null;
}

/** Ports nginx could not bind, from `bind() to ADDR:PORT failed` lines. */
export function failedBindPorts(text: string): number[] {
  const ports = new Set<number>();
  for (const match of text.matchAll(/bind\(\) to \S*?:(\d+) failed/g)) ports.add(Number(match[1]));
  return [...ports];
}
