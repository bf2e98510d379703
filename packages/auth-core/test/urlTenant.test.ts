// A tenant named by a URL (`/login?mode=select&tenantId=X`, an action link's `tenantId`) is used only when
// the widget is configured for it; any other is refused before a provider call (issue 24).
import { describe, expect, it } from 'vitest';
import { handleActionCode } from '../src/action.ts';
import { isUrlTenantAllowed } from '../src/actionUrl.ts';
import { normalizeConfig, type WidgetConfigInput } from '../src/config.ts';
import type { Effect } from '../src/ops.ts';
import type { AuthProvider, ProviderCapabilities } from '../src/provider.ts';
import { type FlowContext, initialState } from '../src/start.ts';
import type { FlowState } from '../src/states.ts';
import { transition } from '../src/transition.ts';

const ORIGIN = 'https://app.example';
const CAPS: ProviderCapabilities = {
  password: true,
  emailLink: true,
  phone: false,
  anonymous: false,
  federated: [],
  popup: false,
  redirect: false,
  tenants: true,
  reliableSignInMethodLookup: true,
  actionCodes: ['resetPassword', 'recoverEmail', 'verifyEmail', 'verifyAndChangeEmail', 'signIn', 'select'],
  captcha: false,
};
const NO_TENANTS: WidgetConfigInput = { signInOptions: ['email'] };
const ACME: WidgetConfigInput = {
  signInOptions: ['email'],
  tenants: [
    { id: null, displayName: 'Everyone' },
    { id: 'acme', displayName: 'ACME' },
  ],
};

/** The state and effects after `START` on `url`. */
function start(input: WidgetConfigInput, url: string): { state: FlowState; effects: readonly Effect[] } {
  const ctx: FlowContext = { config: normalizeConfig(input, ORIGIN), capabilities: CAPS };
  const [state, effects] = transition(
    initialState(),
    { type: 'START', url: `${ORIGIN}${url}`, currentUser: null, redirectPending: false },
    ctx,
  );
  return { state, effects };
}

const calls = (effects: readonly Effect[]) => effects.filter((e) => e.type === 'call');

describe('isUrlTenantAllowed', () => {
  it.each([
    [null, [], true],
    [null, ['acme'], true],
    ['acme', ['acme', null], true],
    ['acme', [], false],
    ['acme', [null], false],
    ['ACME', ['acme'], false],
    ['', ['acme'], false],
  ] as const)('%j among %j → %s', (tenantId, ids, allowed) => {
    expect(isUrlTenantAllowed(tenantId, ids)).toBe(allowed);
  });
});

describe('a tenant from the URL (issue 24)', () => {
  it('select: an unknown tenant is refused on the first card, and the flow stays on the default tenant', () => {
    for (const input of [NO_TENANTS, ACME]) {
      const { state, effects } = start(input, '/login?mode=select&tenantId=evil');
      expect(state.tenantId).toBeNull();
      expect(state.error).toBe('operation-not-allowed');
      expect(['emailEntry', 'providerChooser']).toContain(state.card);
      expect(calls(effects)).toEqual([]);
    }
  });

  it('select: a configured tenant is taken', () => {
    const { state } = start(ACME, '/login?mode=select&tenantId=acme');
    expect(state.tenantId).toBe('acme');
    expect(state.error).toBeNull();
  });

  it('an email link of an unknown tenant is refused before the link is checked', () => {
    for (const input of [NO_TENANTS, ACME]) {
      const { state, effects } = start(input, '/action?mode=signIn&oobCode=abc&tenantId=evil');
      expect(state).toMatchObject({ card: 'recoverableError', message: 'invalid-action-code', retry: null });
      expect(state.tenantId).toBeNull();
      expect(calls(effects)).toEqual([]);
    }
    const known = start(ACME, '/action?mode=signIn&oobCode=abc&tenantId=acme');
    expect(known.state.tenantId).toBe('acme');
    expect(calls(known.effects)).toMatchObject([{ op: { kind: 'checkEmailLink' } }]);
  });

  it.each(['resetPassword', 'verifyEmail', 'recoverEmail', 'verifyAndChangeEmail'])(
    'an action code (%s) of an unknown tenant is refused without a provider call',
    (mode) => {
      const refused = start(NO_TENANTS, `/action?mode=${mode}&oobCode=abc&tenantId=evil`);
      expect(refused.state).toMatchObject({ card: 'recoverableError', message: 'invalid-action-code' });
      expect(calls(refused.effects)).toEqual([]);
      const known = start(ACME, `/action?mode=${mode}&oobCode=abc&tenantId=acme`);
      expect(calls(known.effects)).toMatchObject([{ op: { kind: 'actionCode' } }]);
    },
  );

  it('a URL without a tenant is as before', () => {
    const { state, effects } = start(NO_TENANTS, '/action?mode=resetPassword&oobCode=abc');
    expect(state.error).toBeNull();
    expect(calls(effects)).toMatchObject([{ op: { kind: 'actionCode' } }]);
  });
});

describe('handleActionCode with tenantIds (issue 24)', () => {
  function spy() {
    const log: string[] = [];
    const provider: Pick<
      AuthProvider,
      'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'setTenant'
    > = {
      async setTenant(tenantId) {
        log.push(`setTenant ${tenantId}`);
      },
      async verifyPasswordResetCode(code) {
        log.push(`verify ${code}`);
        return 'ada@example.com';
      },
      async checkActionCode() {
        log.push('check');
        return { operation: 'verifyEmail', email: 'ada@example.com', previousEmail: null };
      },
      async applyActionCode() {
        log.push('apply');
      },
    };
    return { log, provider };
  }

  it('refuses a link of another tenant with its failure card, asking the provider nothing', async () => {
    const { log, provider } = spy();
    const url = `${ORIGIN}/action?mode=resetPassword&oobCode=abc&tenantId=evil`;
    expect(await handleActionCode(url, provider, { tenantIds: [null, 'acme'] })).toEqual({
      card: 'passwordResetFailure',
    });
    expect(log).toEqual([]);
  });

  it('uses a listed tenant, and any tenant when no list is given', async () => {
    const listed = spy();
    const url = `${ORIGIN}/action?mode=resetPassword&oobCode=abc&tenantId=acme`;
    expect(await handleActionCode(url, listed.provider, { tenantIds: ['acme'] })).toMatchObject({
      card: 'passwordReset',
    });
    expect(listed.log).toEqual(['setTenant acme', 'verify abc']);
    const unlisted = spy();
    await handleActionCode(url, unlisted.provider);
    expect(unlisted.log).toEqual(['setTenant acme', 'verify abc']);
  });
});
