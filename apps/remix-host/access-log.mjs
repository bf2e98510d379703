// The host's access log. Action links carry one-time secrets in their query (`oobCode`, Supabase's
// `token_hash`, an API key, a continue URL that may hold anything), so a logged URL keeps the path and the
// query's names but only the values of `KEPT`: enough to read the traffic, nothing to replay.

/** Query parameters whose values are safe to log. */
export const KEPT = new Set(['mode', 'lang', 'type']);

/** At most 512 characters of a path. */
const clip = (text) => (text.length > 512 ? `${text.slice(0, 512)}…` : text);

/** A query name or value decoded as a URL would decode it, or null when it is malformed. */
function decode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** `url` (a request target such as `/action?mode=x&oobCode=y`) with every other query value redacted. */
export function redactTarget(url) {
  const at = url.indexOf('?');
  if (at === -1) return clip(url);
  const pairs = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .slice(0, 20)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decode(eq === -1 ? pair : pair.slice(0, eq)) ?? '';
      const shownName = /^[\w.-]{1,40}$/.test(name) ? name : '[name]';
      if (eq === -1) return shownName;
      const value = decode(pair.slice(eq + 1)) ?? '';
      const shownValue = KEPT.has(shownName) && /^[\w.-]{0,40}$/.test(value) ? value : '[redacted]';
      return `${shownName}=${shownValue}`;
    });
  return `${clip(url.slice(0, at))}?${pairs.join('&')}`;
}

/** Express middleware: one line per request once it is answered: method, redacted target, status, time. */
export function accessLog(write = (line) => console.log(line)) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      write(
        `${req.method} ${redactTarget(req.originalUrl ?? req.url ?? '')} ${res.statusCode} ${ms.toFixed(1)} ms`,
      );
    });
    next();
  };
}
