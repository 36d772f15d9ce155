/**
 * Answers built with every header they will carry (lib/response-headers.ts completeJson): the
 * middleware that add the request id and the security headers leave them as they are.
 */
const complete = new WeakSet<Response>();

export function markComplete(res: Response): Response {
  complete.add(res);
  return res;
}

export function isComplete(res: Response): boolean {
  return complete.has(res);
}
