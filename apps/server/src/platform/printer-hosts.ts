import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from './errors';

/**
 * Which hosts a warehouse's label printer (raw TCP, port 9100 style) may be: the warehouse's own network only — the
 * host is typed by a seller, and the server connects to it, so anything on the internet or on the server itself
 * would make "send to printer" a way to reach other machines. Allowed: RFC 1918 (10/8, 172.16/12, 192.168/16),
 * IPv4 link-local (169.254/16), IPv6 unique-local (fc00::/7) and link-local (fe80::/10); loopback (127/8, ::1) only
 * where the operator allows it (tests: `LABEL_PRINTER_ALLOW_LOOPBACK=1`); and whatever the operator lists in
 * `LABEL_PRINTER_ALLOWED_HOSTS` (host names, addresses or CIDR ranges). A host name must resolve to allowed addresses
 * only, and the printer is connected to the address that was checked (a changed DNS answer cannot slip through).
 */

export interface TPrinterHostPolicy {
  allowLoopback: boolean;
  /** Operator's extra hosts: names (matched exactly, case-insensitive), addresses or CIDR ranges. */
  allowed: readonly string[];
}

const LOCAL = new BlockList();
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function operatorList(policy: TPrinterHostPolicy): { list: BlockList; names: Set<string> } {
  const list = new BlockList();
  const names = new Set<string>();
  for (const raw of policy.allowed) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address, bits] = entry.split('/');
    const family = isIP(address!);
    if (family && bits !== undefined) list.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    else if (family) list.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
    else names.add(entry.toLowerCase());
  }
  return { list, names };
}

/** The address as BlockList checks it: an IPv4-mapped IPv6 address is its IPv4 address. */
function plain(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Is this address one a label printer may have under the policy? */
export function isPrinterAddressAllowed(address: string, policy: TPrinterHostPolicy): boolean {
  if (!isIP(address)) return false;
  const a = plain(address);
  if (LOCAL.check(a.address, a.type)) return true;
  if (policy.allowLoopback && LOOPBACK.check(a.address, a.type)) return true;
  return operatorList(policy).list.check(a.address, a.type);
}

const refused = (host: string) => new AppError('LABEL_PRINTER_HOST_NOT_ALLOWED', { field: 'label_printer_host', host });

/**
 * The address to connect to for a printer host, checked against the policy: LABEL_PRINTER_HOST_NOT_ALLOWED (naming
 * the field) when it is, or a name resolves to, an address outside the warehouse's network; `null` when a name does
 * not resolve here (a printer's name known on the warehouse's network only: checked when it is used). A name the
 * operator listed is connected to by name.
 */
export async function printerAddress(host: string, policy: TPrinterHostPolicy): Promise<string | null> {
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (operatorList(policy).names.has(name.toLowerCase())) return name;
  if (isIP(name)) {
    if (!isPrinterAddressAllowed(name, policy)) throw refused(host);
    return name;
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(name, { all: true });
  } catch {
    return null;
  }
  if (addresses.length === 0) return null;
  if (!addresses.every((a) => isPrinterAddressAllowed(a.address, policy))) throw refused(host);
  return addresses[0]!.address;
}
