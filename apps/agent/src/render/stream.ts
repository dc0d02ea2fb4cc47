import type { EdgeStream } from '@rampart/contracts';
import { THROTTLE_KBPS_MAX } from '@rampart/contracts';
import { integer, RenderRefusal, safeText } from './quote.ts';
import { renderUpstream } from './upstream.ts';
import { streamSchemaErrors } from './validate.ts';

export const streamUpstreamName = (streamId: number) => `rampart_stream_${streamId}`;

/** The config of one TCP or UDP stream, after checking it against the contract schema again. */
export function renderStream(stream: EdgeStream, listenAddress: string): string {
  const problem = streamSchemaErrors(stream);
  if (problem) throw new RenderRefusal('stream', problem);
  return renderStreamBody(stream, listenAddress);
}

export function renderStreamBody(stream: EdgeStream, listenAddress: string): string {
  const id = integer(stream.id, 'id');
  const port = integer(stream.listen_port, 'listen_port', 1, 65535);
  if (stream.protocol !== 'tcp' && stream.protocol !== 'udp') throw new RenderRefusal('protocol', 'must be tcp or udp');
  const address = listenAddress === '' ? port : `${safeText(listenAddress, 'listen address', 64)}:${port}`;
  const name = streamUpstreamName(stream.id);
  // A stream of an inactive package under the `throttle` policy: both directions, per connection.
  const throttle = stream.enforcement
    ? `${integer(stream.enforcement.rate_kbps, 'enforcement.rate_kbps', 1, THROTTLE_KBPS_MAX)}k`
    : null;
  const lines = [
    `# stream ${id}`,
    renderUpstream(name, stream.origins, stream.balance, 'stream'),
    '',
    'server {',
    `    listen ${address}${stream.protocol === 'udp' ? ' udp' : ''};`,
    `    set $rampart_stream_id "${id}";`,
    `    proxy_pass ${name};`,
    '    proxy_connect_timeout 5s;',
    // A UDP "session" ends after this much silence; TCP keeps nginx's default of 10 minutes.
    ...(stream.protocol === 'udp' ? ['    proxy_timeout 20s;'] : []),
    `    proxy_protocol ${stream.proxy_protocol ? 'on' : 'off'};`,
    ...(throttle ? [`    proxy_download_rate ${throttle};`, `    proxy_upload_rate ${throttle};`] : []),
    '}',
    '',
  ];
  return lines.join('\n');
}
