/** The configured trusted proxies (addresses and CIDR ranges). */
export interface TrustedProxies {
  /** How many entries the variable listed. */
  readonly size: number;
  /** Whether `address` (normalized, see {@link normalizeAddress}) is one of them. */
  has(address: string): boolean;
}

export declare const TRUSTED_PROXIES_VARIABLE: 'DOORWAY_TRUSTED_PROXIES';
export declare const UNKNOWN_CLIENT: 'unknown';
export declare const NO_TRUSTED_PROXIES: TrustedProxies;
export declare function normalizeAddress(text: string): string | null;
export declare function parseTrustedProxies(value: string | undefined, name?: string): TrustedProxies;
export declare function clientAddress(
  req: {
    socket?: { remoteAddress?: string | undefined } | null;
    headers?: Record<string, string | string[] | undefined>;
  },
  trusted?: TrustedProxies,
): string;
