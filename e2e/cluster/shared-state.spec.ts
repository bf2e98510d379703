/**
 * What the cluster's processes share (scripts/cluster.mjs): the throttle's counters in Redis, so a burst
 * spread over every process is limited as one process would limit it; and Redis itself taken away mid-run:
 * what needs it (a passkey challenge) is refused with the catalogue's message, never a 500 or a hang, what
 * does not (a password sign-in) goes on, and when Redis is back everything works without a restart.
 */
import { messageFor } from '../../packages/auth-core/src/messages.ts';
import { enterEmail, uiText } from '../host-pages.ts';
import { addAuthenticator } from '../webauthn.ts';
import {
  accountOf,
  createAccount,
  expect,
  expectSpread,
  hostWidgetOf,
  passkeysCardOf,
  signIn,
  signUp,
  test,
  uniqueEmail,
  upstreamOf,
} from './fixtures.ts';

const PASSWORD = 'Secret-123';
/** DOORWAY_THROTTLE_ACCOUNT_FAILURES's default. */
const ACCOUNT_FAILURES = 10;

test('a burst of wrong passwords spread over every process meets one limit (429 and the message)', async ({
  browser,
  cluster,
}) => {
  const email = uniqueEmail('cluster-throttle');
  await createAccount(email, PASSWORD);
  const attacker = await browser.newContext({ baseURL: cluster.url, javaScriptEnabled: false });
  // Through the load balancer from an address of a documentation range (RFC 5737): its own counters.
  const client = `203.0.113.${1 + Math.floor(Math.random() * 254)}`;
  await attacker.setExtraHTTPHeaders({ 'x-forwarded-for': client });
  try {
    const page = await attacker.newPage();
    const widget = hostWidgetOf(page, { scripts: false });
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    const answers: { status: number; upstream: string }[] = [];
    for (let i = 0; i <= ACCOUNT_FAILURES; i++) {
      await widget.field('Password').fill(`wrong-guess-${i}`);
      const answered = page.waitForResponse((r) => r.request().method() === 'POST');
      await widget.button('Sign in').click();
      const response = await answered;
      answers.push({ status: response.status(), upstream: upstreamOf(response) });
    }
    expect(answers.map((a) => a.status)).toEqual([...Array<number>(ACCOUNT_FAILURES).fill(200), 429]);
    expectSpread(answers.map((a) => a.upstream));
    await widget.expectError(messageFor('too-many-requests'));
  } finally {
    await attacker.close();
  }
});

test('Redis away: a passkey is refused with the message, a password still signs in; Redis back: the passkey is added', async ({
  page,
  cluster,
}) => {
  test.setTimeout(120_000);
  await addAuthenticator(page);
  const email = uniqueEmail('cluster-redis');
  await signUp(page, email, PASSWORD);
  const root = page.locator('.host-passkeys');
  const offer = root.getByRole('region', { name: 'Sign in faster next time' });
  const passkeys = passkeysCardOf(page, root);
  const errors: number[] = [];
  page.on('response', (r) => {
    if (r.status() >= 500 && r.status() !== 503) errors.push(r.status());
  });

  await cluster.redis.stop();
  try {
    await offer.getByRole('button', { name: 'Add a passkey', exact: true }).click();
    await expect(offer).toContainText(messageFor('network-request-failed'));
    await expect(passkeys.list.getByRole('listitem')).toHaveCount(0);
    // The password path needs no Redis: the throttle lets requests through while its store is away.
    await page.waitForTimeout(1100); // Firebase compares revocation and sign-in times in whole seconds.
    await accountOf(page).signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await signIn(page, email, PASSWORD);
    await expect(accountOf(page).value('Email')).toHaveText(email);
  } finally {
    await cluster.redis.start();
  }
  // Back without a restart of any process: the same page adds the passkey.
  await page.reload();
  await expect(async () => {
    await offer.getByRole('button', { name: 'Add a passkey', exact: true }).click({ timeout: 2000 });
    await expect(offer).toContainText('Passkey added.', { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(passkeys.list.getByRole('listitem')).toHaveCount(1);
  expect(errors, 'answers of 500 or above other than 503').toEqual([]);
});
