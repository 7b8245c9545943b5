/**
 * Where the bank may push a notification: never inward. The check runs at delivery time on every
 * address a host resolves to, inside the connection's own lookup, so the address checked is the
 * one connected to and a name that resolves elsewhere later (DNS rebinding) gains nothing.
 */
import { lookup as resolve, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { networkInterfaces } from "node:os";

export interface TargetRules {
  /** NOTIFICATION_LOOPBACK: loopback addresses are allowed, but not the bank's own ports. */
  allowLoopback: boolean;
  /** The ports the bank's listeners are bound to now. */
  ownPorts: () => readonly number[];
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Private, shared, link-local, unspecified, multicast and reserved ranges. */
const INWARD = new BlockList();
for (const [network, prefix] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10],
  ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.168.0.0", 16], ["224.0.0.0", 3]] as const) {
  INWARD.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [["::", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8],
  ["64:ff9b::", 96]] as const) {
  INWARD.addSubnet(network, prefix, "ipv6");
}

/** "::ffff:127.0.0.1" is 127.0.0.1: a mapped address must not slip past the IPv4 ranges. */
function unmapped(address: string): { address: string; type: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return { address: mapped, type: "ipv4" };
  return { address, type: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

function ownAddresses(): Set<string> {
  return new Set(Object.values(networkInterfaces()).flatMap((list) => list ?? [])
    .map((entry) => unmapped(entry.address).address));
}

/** Why the bank must not connect to `address` on `port`; null when it may. */
export function targetRefusal(address: string, port: number, rules: TargetRules): string | null {
  const { address: plain, type } = unmapped(address);
  if (LOOPBACK.check(plain, type)) {
    if (!rules.allowLoopback) return `${address} is a loopback address`;
    return rules.ownPorts().includes(port) ? `${address}:${port} is the bank's own listener` : null;
  }
  if (INWARD.check(plain, type)) return `${address} is a private or reserved address`;
  return ownAddresses().has(plain) ? `${address} is the bank's own address` : null;
}

/** A lookup for one connection that fails when any address the host resolves to is refused. */
export function checkedLookup(port: number, rules: TargetRules): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { all: true, family: options.family ?? 0 }, (error, found) => {
      if (error) return callback(error, "", 0);
      const refused = found.map((a) => targetRefusal(a.address, port, rules)).find(Boolean);
      if (refused) {
        return callback(new Error(`refused: ${hostname} resolves to an address the bank does `
          + `not push to (${refused})`), "", 0);
      }
      const [first] = found as [LookupAddress];
      // Node asks for every address when it tries them in turn (autoSelectFamily).
      const every = callback as unknown as (error: null, all: LookupAddress[]) => void;
      if (options.all) every(null, found);
      else callback(null, first.address, first.family);
    });
  };
}
