/**
 * An email link through the cluster: asked for on one process, which is then killed, its link opened in
 * another browser and confirmed on whichever processes answer (the link's origin is the load balancer's, DOORWAY_PUBLIC_ORIGIN).
 */

import { enterEmail, uiText } from '../host-pages.ts';
import {
  accountOf,
  emailSignInUrl,
  expect,
  expectSpread,
  hostWidgetOf,
  killLastUpstream,
  lastOobCode,
  recordUpstreams,
  test,
  uniqueEmail,
} from './fixtures.ts';

test.use({
  clusterEnv: { DOORWAY_SIGN_IN_OPTIONS: 'emailLink,google.com' },
  javaScriptEnabled: false,
});

test('asked for without JavaScript, the process that sent it killed, opened in another browser with it, confirmed: signed in', async ({
  page,
  browser,
  cluster,
  upstreams,
  clusterKilled,
}) => {
  const email = uniqueEmail('cluster-link');
  const form = hostWidgetOf(page, { scripts: false });
  await page.goto('/login');
  await enterEmail(form, email);
  await form.card('emailLinkSent', uiText.emailLinkSentTitle);
  const code = await lastOobCode(email, 'EMAIL_SIGNIN');
  const continueUrl = new URL(new URL(code.oobLink).searchParams.get('continueUrl') ?? '');
  expect(continueUrl.origin).toBe(cluster.url);
  await killLastUpstream(cluster, upstreams, clusterKilled);

  const other = await browser.newContext({
    baseURL: cluster.url,
    javaScriptEnabled: true,
    viewport: { width: 400, height: 900 },
  });
  try {
    const second = await other.newPage();
    recordUpstreams(second, upstreams);
    const device = hostWidgetOf(second);
    await second.goto(emailSignInUrl(code));
    await device.card('emailLinkConfirmation', 'Confirm email');
    await device.field('Email').fill(email);
    await device.button('Next').click();
    await second.waitForURL('**/account');
    await expect(accountOf(second).value('Email')).toHaveText(email);
  } finally {
    await other.close();
  }
  expectSpread(upstreams);
});
