import type { Context } from 'hono';
import { clientIp } from '../lib/headers';
import type { AppEnv } from '../lib/context';
import type { RequestInfo } from '../access/payments';

/** Who asks, for audit rows and messages. Nothing here builds a URL: outbound URLs come from env (payos/origin.ts). */
export function reqInfo(c: Context<AppEnv>): RequestInfo {
  return { ip: clientIp(c), lang: c.get('lang') };
}
