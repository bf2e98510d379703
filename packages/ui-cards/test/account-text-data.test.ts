import { en } from '@doorway/auth-core/locales/en';
import { expect, it } from 'vitest';
import { accountText, passkeyOfferText, passkeyText } from '../src/account/text.ts';

/** Each text of a table, with a function's parameters written `{name}` (as the catalogue as data has them). */
function templates(table: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(table).map(([key, value]) => {
      if (typeof value === 'string') return [key, value];
      const names = (/^\(([^)]*)\)/.exec(String(value))?.[1] ?? '')
        .split(',')
        .map((p) => p.split(':')[0]?.trim())
        .filter(Boolean);
      return [key, (value as (...a: string[]) => string)(...names.map((n) => `{${n}}`))];
    }),
  );
}

it('the account components say what the catalogue as data says in English', () => {
  const runtime = {
    account: templates(accountText),
    passkey: {
      ...templates(passkeyText),
      detail: passkeyText.detail('{added}', false),
      detailSynced: passkeyText.detail('{added}', true),
    },
    passkeyOffer: passkeyOfferText,
  };
  for (const [group, table] of Object.entries(runtime))
    for (const [key, text] of Object.entries(en[group as keyof typeof runtime]))
      expect((table as Record<string, string>)[key], `${group}.${key}`).toBe(text);
});
