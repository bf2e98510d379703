import type { IncomingMessage, ServerResponse } from 'node:http';

type GateRequest = IncomingMessage & { originalUrl?: string; protocol?: string };

export declare const MAX_BODY_BYTES: number;
export declare function requestUrl(req: GateRequest): URL | null;
export declare function isCrossOrigin(req: GateRequest): boolean;
export declare function readLimitedBody(
  req: GateRequest,
  res: ServerResponse,
  limit?: number,
): Promise<Buffer | null>;
export declare function gatedRemixHandler(
  handle: (request: Request) => Promise<Response>,
  options?: { maxBodyBytes?: number },
): (req: GateRequest, res: ServerResponse, next: (error?: unknown) => void) => Promise<void>;
export declare function badRequestTargets(): (
  req: GateRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;
