import { uiText } from '@doorway/auth-core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ActionView } from '../app/action.server.ts';
import { ActionCard } from '../app/components/ActionCard.tsx';

type CardView = Exclude<ActionView, { card: 'widget' }>;

const VIEWS: CardView[] = [
  { card: 'passwordReset', email: 'ada@example.com', error: null },
  { card: 'passwordReset', email: 'ada@example.com', error: 'password-weak' },
  { card: 'passwordResetSuccess', continueUrl: '/login' },
  { card: 'passwordResetFailure' },
  { card: 'emailVerificationSuccess', continueUrl: '/account' },
  { card: 'emailVerificationFailure' },
  { card: 'verifyAndChangeEmailSuccess', email: 'new@example.com', continueUrl: 'https://app.example.com/' },
  { card: 'verifyAndChangeEmailFailure' },
  { card: 'revertSecondFactorAdditionSuccess', factor: '+1 555-0100', email: 'ada@example.com' },
  { card: 'revertSecondFactorAdditionSuccess', factor: '+1 555-0100', email: null },
  { card: 'revertSecondFactorAdditionFailure' },
  { card: 'emailChangeRevoked', email: 'ada@example.com' },
  { card: 'emailChangeRevokeFailure' },
  { card: 'recoverableError', message: 'network-request-failed' },
  { card: 'passwordRecovery', email: 'nope', error: 'email-invalid' },
  { card: 'recoveryEmailSent', email: 'ada@example.com' },
];

const QUERY = '?mode=resetPassword&oobCode=abc';
const FORM_ACTION = `/action/submit${QUERY}`;
const html = (view: CardView) => renderToStaticMarkup(<ActionCard view={view} query={QUERY} />);
const hrefs = (markup: string) => [...markup.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');

describe('ActionCard', () => {
  it.each(VIEWS.map((v) => [v.card, v] as const))(
    '%s: the widget’s classes, one h1, no script',
    (_, view) => {
      const markup = html(view);
      expect(markup).toMatch(
        new RegExp(
          `^<div class="doorway" data-card="${view.card}"><section class="doorway-card"><h1 class="doorway-title" tabindex="-1">`,
        ),
      );
      expect(markup.match(/<h1/g)).toHaveLength(1);
      expect(markup).not.toMatch(/<script|javascript:|\son\w+=/i);
      // Links stay on this host (paths) or go where the server already allowed (the view's continue URL);
      // forms post to the submit route.
      for (const href of hrefs(markup))
        expect(href.startsWith('/') || href === 'https://app.example.com/').toBe(true);
      for (const [, target] of markup.matchAll(/<form[^>]* action="([^"]*)"/g))
        expect(target).toBe(FORM_ACTION.replace('&', '&amp;'));
      expect(markup.match(/<form(?![^>]* action=)/g)).toBeNull();
    },
  );

  it('password reset: a plain POST form with the new-password field, its hint and error', () => {
    const markup = html({ card: 'passwordReset', email: 'ada@example.com', error: 'password-weak' });
    expect(markup).toContain(uiText.passwordResetFor('ada@example.com'));
    expect(markup).toContain(
      '<form class="doorway-form" method="post" action="/action/submit?mode=resetPassword&amp;oobCode=abc" novalidate="">',
    );
    expect(markup).toContain('name="intent" value="resetPassword"');
    expect(markup).toMatch(/<label class="doorway-label" for="new-password">Choose password<\/label>/);
    expect(markup).toContain(`<p id="new-password-hint" class="doorway-hint">${uiText.passwordHint}</p>`);
    expect(markup).toContain('Use at least 6 characters with letters and numbers</p>');
    expect(markup).toMatch(/autocomplete="new-password"/i);
    expect(markup).toContain('aria-invalid="true" aria-describedby="new-password-hint new-password-error"');
  });

  it('success cards: Continue is a link to the checked continue URL', () => {
    expect(hrefs(html({ card: 'emailVerificationSuccess', continueUrl: '/account' }))).toEqual(['/account']);
    expect(html({ card: 'passwordResetSuccess', continueUrl: '/login' })).toContain(
      `>${uiText.continue}</a>`,
    );
  });

  it('email change revoked: the restored address and a Change password form', () => {
    const markup = html({ card: 'emailChangeRevoked', email: 'ada@example.com' });
    expect(markup).toContain(uiText.emailChangeRevokedText('ada@example.com'));
    expect(markup).toContain('name="intent" value="sendPasswordReset"');
    expect(markup).toContain('name="email" value="ada@example.com"');
    expect(markup).toContain(`>${uiText.resetPasswordAction}</button>`);
  });

  it('second factor removed without an email: no Change password', () => {
    expect(html({ card: 'revertSecondFactorAdditionSuccess', factor: 'phone', email: null })).not.toContain(
      '<form',
    );
  });

  it('recoverable error: the message and a Retry link to the same page', () => {
    const markup = html({ card: 'recoverableError', message: 'network-request-failed' });
    expect(markup).toContain('A network error has occurred');
    expect(markup).toContain(
      `<a class="doorway-button" href="/action?mode=resetPassword&amp;oobCode=abc">${uiText.retry}</a>`,
    );
  });

  it('escapes what it shows', () => {
    const markup = html({ card: 'emailChangeRevoked', email: '"><img src=x onerror=alert(1)>@example.com' });
    expect(markup).not.toContain('<img');
  });
});
