import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';

const { Packet } = dns2;

export interface Zone {
  /** name → CNAME target */
  cname?: Record<string, string>;
  /** name → IPv4 address */
  a?: Record<string, string>;
}

export interface DnsServer {
  /** host:port to hand a resolver */
  address: string;
  close(): Promise<void>;
}

/** A real authoritative DNS server on 127.0.0.1 (UDP) answering from `zone`; unknown names are NXDOMAIN. */
export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      const cname = zone.cname?.[name];
      const address = zone.a?.[name];
      if (cname)
        response.answers.push(
          new Packet.Resource({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: cname }),
        );
      else if (address && question?.type === Packet.TYPE.A) {
        response.answers.push(
          new Packet.Resource({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address }),
        );
      } else if (!address) response.header.rcode = 3; // NXDOMAIN
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = server.addresses().udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, close: () => server.close() };
}
