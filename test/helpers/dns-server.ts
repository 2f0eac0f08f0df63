/** A tiny DNS server on 127.0.0.1 (UDP) answering TXT records from a map: what custom hostnames' verification asks. */
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

export type DnsServer = { address: string; txt: Map<string, string[]>; close(): Promise<void> };

export async function startDnsServer(): Promise<DnsServer> {
  const txt = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    const records = question && question.type === 'TXT' ? txt.get(question.name.toLowerCase()) : undefined;
    const answer = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers: (records ?? []).map((data) => ({ type: 'TXT' as const, name: question!.name, ttl: 1, class: 'IN' as const, data })),
    });
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { address: `127.0.0.1:${port}`, txt, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
