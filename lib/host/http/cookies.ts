import type { Cookie } from '@azure/functions';

/**
 * Serialises an @azure/functions Cookie into a Set-Cookie header value (RFC 6265): the value is percent-encoded
 * as ASP.NET Core does; `expires` accepts a Date or Unix milliseconds; `sameSite: 'None'` is written explicitly.
 */
export function serializeCookie(cookie: Cookie): string {
  if (typeof cookie.name !== 'string' || cookie.name === '' || /[\s;,=]/.test(cookie.name)) {
    throw new TypeError(`Invalid cookie name ${JSON.stringify(cookie.name)}.`);
  }
  const parts = [`${cookie.name}=${encodeURIComponent(String(cookie.value ?? ''))}`];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path) parts.push(`Path=${cookie.path}`);
  if (cookie.expires !== undefined) {
    const expires = cookie.expires instanceof Date ? cookie.expires : new Date(cookie.expires);
    if (Number.isNaN(expires.getTime())) throw new TypeError(`Invalid expires for cookie "${cookie.name}".`);
    parts.push(`Expires=${expires.toUTCString()}`);
  }
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${Math.trunc(cookie.maxAge)}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}
