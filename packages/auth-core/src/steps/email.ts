/**
 * Email entry and where it leads (spec §4): the account's existing sign-in methods pick the next card.
 * @module
 */
import { emailOptionOf, tenantForEmail } from '../config.ts';
import type { SignInMethod } from '../provider.ts';
import { typedEmail } from '../rules.ts';
import type { FlowState } from '../states.ts';
import { sendEmailLinkOp } from './emailLink.ts';
import { federatedOption } from './federated.ts';
import { fail, isMethods } from './shared.ts';
import { call, type FlowContext, go, optionsOf, type Step, same, type TransitionResult } from './step.ts';

/** Spec §4: where email entry leads, by the account's existing sign-in methods. */
function routeEmail(
  state: FlowState,
  ctx: FlowContext,
  email: string,
  methods: readonly SignInMethod[],
): TransitionResult {
  const options = optionsOf(state, ctx);
  const emailOption = emailOptionOf(options);
  const linkMode = emailOption?.signInMethod === 'emailLink';
  // Identifier-first picked a tenant that has no email option: offer that tenant's options instead.
  if (!emailOption && options.length > 0 && ctx.config.displayMode === 'identifierFirst') {
    return go({ ...state, tenantChosen: true }, { card: 'providerChooser', chooseTenant: false });
  }
  if (!ctx.capabilities.reliableSignInMethodLookup) {
    // Enumeration-safe: never reveal whether the account exists.
    if (!emailOption) return go(state, { card: 'unsupportedProvider', email });
    if (linkMode) return call(state, sendEmailLinkOp(state, ctx, email, null));
    return go(state, { card: 'passwordSignIn', email, offerSignUp: !emailOption.disableSignUp });
  }
  if (methods.includes('password')) {
    return emailOption
      ? go(state, { card: 'passwordSignIn', email, offerSignUp: false })
      : go(state, { card: 'unsupportedProvider', email });
  }
  if (methods.includes('emailLink')) {
    if (!emailOption) return go(state, { card: 'unsupportedProvider', email });
    return linkMode
      ? call(state, sendEmailLinkOp(state, ctx, email, null))
      : go(state, { card: 'passwordRecovery', email });
  }
  const federated = methods.find((m) => m !== 'phone');
  if (federated !== undefined) {
    return federatedOption(options, federated)
      ? go(state, { card: 'federatedSignIn', email, providerId: federated })
      : go(state, { card: 'unsupportedProvider', email });
  }
  if (methods.length > 0 || !emailOption) return go(state, { card: 'unsupportedProvider', email });
  if (emailOption.disableSignUp) {
    return go(state, {
      card: 'unauthorizedUser',
      email,
      adminEmail: emailOption.adminEmail,
      helpLink: emailOption.helpLink,
    });
  }
  if (linkMode) return call(state, sendEmailLinkOp(state, ctx, email, null));
  return go(state, { card: 'passwordSignUp', email, requireName: emailOption.requireDisplayName });
}

export const emailEntry = {
  ui: {
    SUBMIT_EMAIL: (state, event, ctx) => {
      if (state.card !== 'emailEntry') return same(state);
      const { email, invalid } = typedEmail(event.email);
      const typed = { ...state, email } as FlowState;
      if (invalid) return fail(typed, invalid);
      const tenant = ctx.config.displayMode === 'identifierFirst' ? tenantForEmail(ctx.config, email) : null;
      const tenantChange = tenant !== null && tenant.id !== state.tenantId ? tenant.id : undefined;
      if (!ctx.capabilities.reliableSignInMethodLookup && tenantChange === undefined) {
        return routeEmail(typed, ctx, email, []);
      }
      return call(typed, { kind: 'lookupEmail', email, tenantId: tenantChange });
    },
  },
  ops: {
    lookupEmail: {
      shape: isMethods,
      resolved: (state, ctx, op, result) => {
        const next = op.tenantId === undefined ? state : { ...state, tenantId: op.tenantId };
        return routeEmail(next, ctx, op.email, result as SignInMethod[]);
      },
    },
  },
} satisfies Step;
