import type { RequestListener } from 'node:http';
import type { TrustedProxies } from './client-address.mjs';
import type { GateLoadContext } from './request-gate.mjs';

export declare function createHostApp(options: {
  handle: (request: Request, context: GateLoadContext) => Promise<Response>;
  publicPath: string;
  assetsBuildDirectory: string;
  publicDirectory?: string;
  trustedProxies?: TrustedProxies;
  log?: (line: string) => void;
  errorLog?: (line: string) => void;
}): RequestListener & { listen(port: number, host?: string): import('node:http').Server };
