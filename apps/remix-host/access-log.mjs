// The host's access log. Action links carry one-time secrets in their query (`oobCode`, Supabase's
// `token_hash`, an API key, a continue URL that may hold anything), so a logged URL keeps the path and the
// query's names but only the values of `KEPT`: enough to read the traffic, nothing to replay.

/** Query parameters whose values are safe to log. */
export const KEPT = new Set(['mode', 'lang', 'type']);

/** `url` (a request target such as `/action?mode=x&oobCode=y`) with every other query value redacted. */
export function redactTarget(url) {
  const at = url.indexOf('?');
  if (at === -1) return url.length > 512 ? `${url.slice(0, 512)}…` : url;
  const path = url.slice(0, at);
  const pairs = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .slice(0, 20)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = '';
      }
      const shownName = /^[\w.-]{1,40}$/.test(name) ? name : '[name]';
      if (eq === -1) return shownName;
      let value = pair.slice(eq + 1);
      try {
        value = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        value = '';
      }
      const shownValue = KEPT.has(shownName) && /^[\w.-]{0,40}$/.test(value) ? value : '[redacted]';
      return `${shownName}=${shownValue}`;
    });
  return `${path.length > 512 ? `${path.slice(0, 512)}…` : path}?${pairs.join('&')}`;
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
