import type { Context } from 'hono';
import { clientIp } from '../lib/audit';
import type { AppEnv } from '../lib/context';
import { publicOrigin } from '../payos/origin';
import type { RequestInfo } from './access';

export function reqInfo(c: Context<AppEnv>): RequestInfo & { origin: string } {
  return { ip: clientIp(c), lang: c.get('lang'), origin: publicOrigin(c.get('deps').env, c) };
}
