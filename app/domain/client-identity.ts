// Who counts as one client for per-client rate limits. An IPv4 address is one client; an IPv6 client
// usually holds a whole /64 and can rotate through it, so its /64 prefix is what identifies it.

/** The eight 16-bit groups of an IPv6 address, or null if `address` is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!address.includes(":") || !/^[0-9a-f:.]+$/i.test(address)) return null;
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const [head, tail] = [parse(halves[0]!), parse(halves[1] ?? "")];
  const groups = (part: string[]) =>
    part.flatMap((group) => {
      if (group.includes(".")) {
        const bytes = group.split(".").map(Number);
        return bytes.length === 4 && bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)
          ? [bytes[0]! * 256 + bytes[1]!, bytes[2]! * 256 + bytes[3]!]
          : [NaN];
      }
      return /^[0-9a-f]{1,4}$/i.test(group) ? [parseInt(group, 16)] : [NaN];
    });
  const [first, last] = [groups(head), groups(tail)];
  const missing = 8 - first.length - last.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...first, ...Array<number>(missing).fill(0), ...last];
  return all.some(Number.isNaN) ? null : all;
}

/** The rate-limit identity of the client at `address`: the address itself, or an IPv6 /64. */
export function clientIdentity(address: string | null): string {
  if (!address) return "unknown-client";
  const groups = ipv6Groups(address.trim());
  if (!groups) return address.trim();
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
