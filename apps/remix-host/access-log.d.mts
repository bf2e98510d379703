export declare const KEPT: ReadonlySet<string>;
export declare function redactTarget(url: string): string;
export declare function accessLog(
  write?: (line: string) => void,
): (
  req: { method: string; originalUrl?: string; url?: string },
  res: { statusCode: number; on(event: 'finish', listener: () => void): unknown },
  next: () => void,
) => void;
