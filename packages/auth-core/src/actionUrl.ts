/**
 * Reading an email action URL (`mode`, `oobCode`, `continueUrl`, `tenantId`, `lang`); `action.ts` handles
 * the action itself.
 * @module
 */
import { ACTION_MODES, type ActionMode } from './provider.ts';

/** The query values of an action URL. */
export interface ActionParams {
  mode: ActionMode;
  /** The action code, or `null` when missing or implausible. */
  oobCode: string | null;
  /** The continue URL exactly as given (unchecked). */
  continueUrl: string | null;
  tenantId: string | null;
  lang: string | null;
}

const MAX_CODE_LENGTH = 2048;

/**
 * Reads `mode`, `oobCode`, `continueUrl`, `tenantId` and `lang` from an action URL. Returns `null` when
 * there is no mode or it is not one of the seven action modes. Never throws.
 */
export function parseActionUrl(url: string | URL): ActionParams | null {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return null;
  }
  const q = parsed.searchParams;
  const mode = q.get('mode');
  if (mode === null || !(ACTION_MODES as readonly string[]).includes(mode)) return null;
  const code = q.get('oobCode');
  return {
    mode: mode as ActionMode,
    oobCode:
      code !== null && code !== '' && code.length <= MAX_CODE_LENGTH && /^[\w-]+$/.test(code) ? code : null,
    continueUrl: q.get('continueUrl'),
    tenantId: q.get('tenantId') || null,
    lang: q.get('lang'),
  };
}

/**
 * Whether the tenant a URL names (an action link's or a `select` link's `tenantId`) may be used: the URL
 * names none, or one of `tenantIds`, the widget's configured tenants (`null` for the default one). A
 * widget without tenants signs in on the project's default tenant only, so it takes no tenant from a URL:
 * anyone can write a link, and the flow would otherwise sign in on whatever tenant it names.
 * @example isUrlTenantAllowed('acme', ['acme', null]) // true
 * @example isUrlTenantAllowed('other', []) // false
 */
export function isUrlTenantAllowed(tenantId: string | null, tenantIds: readonly (string | null)[]): boolean {
  return tenantId === null || tenantIds.includes(tenantId);
}

/** The outcome of an action URL, as the card to show. `widget` means: show the sign-in widget. */
