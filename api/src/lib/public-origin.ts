// Pure, so env.ts can refuse a public sandbox without importing payOS code (which imports env's types).
/** True unless the host is this machine or a private network (localhost, 127/8, ::1, 10/8, 172.16/12, 192.168/16, *.local). */
export function isPublicOrigin(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1' || host === '0.0.0.0') return false;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return !(a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168));
  }
  return true;
}
