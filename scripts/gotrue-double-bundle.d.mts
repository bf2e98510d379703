/** Bundles the GoTrue test double for Node into `outfile` and imports it (see gotrue-double-bundle.mjs). */
export function loadGoTrueDouble(outfile: string): Promise<unknown>;
