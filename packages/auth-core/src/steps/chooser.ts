/**
 * The provider chooser and the tenant chooser: which tenant, which way to sign in.
 * @module
 */
import { emailOptionOf, phoneOptionOf } from '../config.ts';
import type { FlowState } from '../states.ts';
import { federatedOp, federatedOption } from './federated.ts';
import { call, firstCard, go, optionsOf, phoneEntryCard, type Step, same } from './step.ts';

export const chooser = {
  ui: {
    CHOOSE_TENANT: (state, event, ctx) => {
      if (state.card !== 'providerChooser' || !state.chooseTenant || !ctx.config.tenants) return same(state);
      if (!ctx.config.tenants.some((t) => t.id === event.tenantId)) return same(state);
      return call(state, { kind: 'setTenant', tenantId: event.tenantId });
    },
    CHOOSE_PROVIDER: (state, event, ctx) => {
      // Identifier-first shows email entry first, with the other options beside it.
      const fromEmail = state.card === 'emailEntry' && ctx.config.displayMode === 'identifierFirst';
      if (!fromEmail && (state.card !== 'providerChooser' || state.chooseTenant)) return same(state);
      const options = optionsOf(state, ctx);
      const id = event.providerId;
      if ((id === 'email' || id === 'password' || id === 'emailLink') && emailOptionOf(options)) {
        return go(state, { card: 'emailEntry', email: '' });
      }
      if (id === 'phone' && phoneOptionOf(options)) return go(state, phoneEntryCard(options, ''));
      if ((id === 'anonymous' || id === 'passkey') && options.some((o) => o.provider === id)) {
        return call(state, { kind: id });
      }
      const federated = federatedOption(options, id);
      return federated ? call(state, federatedOp(state, ctx, federated, null, null)) : same(state);
    },
  },
  ops: {
    setTenant: {
      resolved: (state, ctx, op) => {
        const chosen: FlowState = { ...state, tenantId: op.tenantId, tenantChosen: true };
        return firstCard(chosen, ctx);
      },
    },
  },
  cards: {
    providerChooser: {
      cancel: (state, ctx) => {
        if (state.chooseTenant || !ctx.config.tenants || ctx.config.tenants.length < 2) return same(state);
        return go({ ...state, tenantChosen: false }, { card: 'providerChooser', chooseTenant: true });
      },
    },
  },
} satisfies Step;
