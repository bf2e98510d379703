/**
 * The host as three processes behind nginx (round robin), sharing Redis and one flow secret: people's
 * journeys whose requests land on whichever process is next, a process killed in the middle of a journey
 * (the visitor finishes on the others with nothing lost), Redis taken away and brought back, and one
 * throttle over all processes.
 */
import type { Request } from '@playwright/test';
import { messageFor } from '../../packages/auth-core/src/messages.ts';
import { accountWithPhoneFactor, FACTOR_PASSWORD, sendSmsCode } from '../host/factors.ts';
import { enterEmail, hasSession, submitPassword, submitSignUp, uiText } from '../host-pages.ts';
import { addAuthenticator } from '../webauthn.ts';
import {
  accountOf,
  createAccount,
  expect,
  expectSpread,
  hostWidgetOf,
  killLastUpstream,
  lastSmsCode,
  passkeysCardOf,
  signIn,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

const PASSWORD = 'Secret-123';

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('sign up, sign out and sign in again, each form answered by whichever process is next', async ({
    page,
    account,
    upstreams,
  }) => {
    const widget = hostWidgetOf(page, { scripts: false });
    const email = uniqueEmail('cluster-nojs');
    await page.goto('/login');
    await enterEmail(widget, email);
    await submitSignUp(widget, 'Ada Lovelace', PASSWORD);
    await expect(page).toHaveURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    expectSpread(upstreams);

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    expect(await hasSession(page)).toBe(false);
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    await submitPassword(widget, PASSWORD);
    await expect(page).toHaveURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('the process that showed the password card is killed: the sign-in finishes on another, the address kept', async ({
    page,
    account,
    cluster,
    upstreams,
    clusterKilled,
  }) => {
    const widget = hostWidgetOf(page, { scripts: false });
    const email = uniqueEmail('cluster-kill');
    await createAccount(email, PASSWORD);
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    const killed = await killLastUpstream(cluster, upstreams, clusterKilled);
    // A wrong password first: the refusal comes from another process, with the address still there.
    await submitPassword(widget, 'not-the-password-1');
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    await widget.expectError(messageFor('wrong-password'));
    await submitPassword(widget, PASSWORD);
    await expect(page).toHaveURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    expect(upstreams.slice(-2).map((u) => cluster.indexOf(u))).not.toContain(killed);
  });
});

test.describe('with JavaScript', () => {
  test('sign up and sign in again, the page, its session and the account page on different processes', async ({
    page,
    account,
    upstreams,
  }) => {
    const email = uniqueEmail('cluster-js');
    await signUp(page, email, PASSWORD);
    await expect(account.value('Email')).toHaveText(email);
    await page.waitForTimeout(1100); // Firebase compares revocation and sign-in times in whole seconds.
    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await signIn(page, email, PASSWORD);
    await expect(account.value('Email')).toHaveText(email);
    expectSpread(upstreams);
  });

  test('the process that served the page is killed before the password is sent: the sign-in goes on', async ({
    page,
    account,
    cluster,
    upstreams,
    clusterKilled,
  }) => {
    const widget = hostWidgetOf(page);
    const email = uniqueEmail('cluster-js-kill');
    await createAccount(email, PASSWORD);
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    await killLastUpstream(cluster, upstreams, clusterKilled);
    await submitPassword(widget, PASSWORD);
    await page.waitForURL('**/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('a passkey added and used with the process that issued each challenge killed before its answer', async ({
    page,
    widget,
    account,
    cluster,
    upstreams,
    clusterKilled,
  }) => {
    test.setTimeout(120_000);
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('cluster-passkey');
    await signUp(page, email, PASSWORD);
    // Each ceremony's answer (the authenticator's signed response) waits until the process that issued
    // its challenge is gone: the challenge is in Redis, so another process checks and takes it.
    let killedFor = 0;
    await page.route('**/passkeys/**', async (route) => {
      const request: Request = route.request();
      if (request.method() === 'POST' && (request.postData() ?? '').includes('clientDataJSON')) {
        for (const i of clusterKilled) await cluster.restart(i);
        clusterKilled.clear();
        await killLastUpstream(cluster, upstreams, clusterKilled);
        killedFor += 1;
      }
      await route.continue();
    });
    const passkeys = passkeysCardOf(page, page.locator('.host-passkeys'));
    const offer = page.locator('.host-passkeys').getByRole('region', { name: 'Sign in faster next time' });
    await offer.getByRole('button', { name: 'Add a passkey', exact: true }).click();
    await expect(offer).toContainText('Passkey added.');
    await expect(passkeys.list.getByRole('listitem')).toHaveCount(1);
    expect(await authenticator.credentials()).toHaveLength(1);

    await page.waitForTimeout(1100); // Firebase compares revocation and sign-in times in whole seconds.
    await accountOf(page).signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await page.goto('/login');
    await widget.button('Sign in with a passkey').click();
    await page.waitForURL('**/account');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Signed in with')).toHaveText('passkey');
    expect(killedFor).toBe(2);
  });
  test('a second factor asked at sign-in, the process that asked killed before the code is sent: signed in', async ({
    page,
    widget,
    account,
    cluster,
    upstreams,
    clusterKilled,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('cluster-factor');
    const phone = await accountWithPhoneFactor(email);
    await signIn(page, email, FACTOR_PASSWORD);
    await widget.card('secondFactorPhone', uiText.secondFactorPhoneTitle);
    await killLastUpstream(cluster, upstreams, clusterKilled);
    await sendSmsCode(widget, phone);
    await widget.field(uiText.codeLabel).fill(await lastSmsCode(phone));
    await widget.button(uiText.verify).click();
    await page.waitForURL('**/account');
    await expect(account.value('Email')).toHaveText(email);
    expectSpread(upstreams);
  });
});
