import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TrustedProxies } from './client-address.mjs';

type GateRequest = IncomingMessage & { originalUrl?: string; protocol?: string };
type Middleware = (req: GateRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The load context the gate hands Remix for each request (the app's `HostLoadContext`). */
export interface GateLoadContext {
  clientAddress: string;
}

/** The gate's own answer to a request (see `methodAnswer`). */
export interface GateAnswer {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

export declare const MAX_BODY_BYTES: number;
export declare const KNOWN_METHODS: ReadonlySet<string>;
export declare const WRITE_ROUTES: readonly { readonly path: string; readonly methods: readonly string[] }[];
export declare const STRICT_TRANSPORT_SECURITY: string;
export declare function routePath(pathname: string): string | null;
export declare function allowedMethods(pathname: string): string[];
export declare function methodAnswer(method: string, url: URL): GateAnswer | null;
export declare function requestUrl(req: GateRequest): URL | null;
export declare function isLocalHostname(hostname: string): boolean;
export declare function strictTransportSecurity(): Middleware;
export declare function isCrossOrigin(req: GateRequest): boolean;
export declare function readLimitedBody(
  req: GateRequest,
  res: ServerResponse,
  limit?: number,
): Promise<Buffer | null>;
export declare function gatedRemixHandler(
  handle: (request: Request, context: GateLoadContext) => Promise<Response>,
  options?: { maxBodyBytes?: number; trustedProxies?: TrustedProxies },
): (req: GateRequest, res: ServerResponse, next: (error?: unknown) => void) => Promise<void>;
export declare function badRequestTargets(): Middleware;
export declare function quietErrors(
  write?: (line: string) => void,
): (error: unknown, req: GateRequest, res: ServerResponse, next: (error?: unknown) => void) => void;
export declare function refuseTunnels<S extends import('node:events').EventEmitter>(
  server: S,
  log?: (line: string) => void,
): S;
