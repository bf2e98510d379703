/**
 * Every card as a picture, in the light and dark themes, 1280 px and 320 px wide, compared with the
 * baselines in docs/cards (`<card>-<theme>.png`, and `320/<card>-<theme>.png`; snapshotPathTemplate in
 * playwright.config.ts). At 320 px each card must also fit without horizontal scrolling, give every
 * control a target of at least 44×44 px, and pass axe-core, in both themes. The cards come from the
 * playground's gallery page (gallery.html), each from a sample state on a clock that stands still; the
 * page says when the card is finished (`<body data-ready="true">`), which is what a picture waits for.
 *
 * Regenerate the baselines after a change to the cards' look:
 * `npm run e2e -- --project=playground e2e/visual.spec.ts --update-snapshots`
 */
import type { Page } from '@playwright/test';
import { GALLERY_VIEWS, type GalleryView } from '../apps/playground/src/galleryStates.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/**
 * Tight: pixelmatch ignores antialiased pixels, and a colour 2 % away (YIQ) counts as changed, so a shift of
 * 16/255 in one channel of a button fails the test; no more than 10 pixels may differ.
 */
const PICTURE = { threshold: 0.02, maxDiffPixels: 10, animations: 'disabled', caret: 'hide' } as const;

/** The smallest target a control may have (WCAG 2.5.5), in CSS px. */
const MIN_TARGET = 44;

/** Opens the gallery on `view` in `theme` and waits until the card is finished. */
async function openCard(page: Page, view: GalleryView, theme: Theme, query = ''): Promise<void> {
  await page.goto(`/gallery.html?card=${view}&theme=${theme}${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/**
 * The controls of the widget smaller than {@link MIN_TARGET} in either direction: every visible button,
 * input and select, and every link that stands on its own (a link inside a sentence is exempt, as WCAG
 * allows), each as `tag "name" W×H`.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const root = document.querySelector('.doorway');
    if (!root) return ['no .doorway on the page'];
    /** A link with other text beside it in a line of text, rather than a block or a flex/grid item. */
    const inSentence = (link: Element): boolean => {
      const parent = link.parentElement;
      if (!parent) return false;
      const display = getComputedStyle(parent).display;
      if (display.includes('flex') || display.includes('grid')) return false;
      return (parent.textContent ?? '').trim() !== (link.textContent ?? '').trim();
    };
    return [...root.querySelectorAll('button, input, select, textarea, a[href]')]
      .filter((el) => el.checkVisibility({ visibilityProperty: true }))
      .filter((el) => el.tagName !== 'A' || !inSentence(el))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < min || box.height < min))
      .map(({ el, box }) => {
        const name =
          el.getAttribute('aria-label') ??
          (el as HTMLInputElement).labels?.[0]?.textContent ??
          el.textContent ??
          '';
        const size = `${Math.round(box.width * 10) / 10}×${Math.round(box.height * 10) / 10}`;
        return `${el.tagName.toLowerCase()} "${name.trim()}" ${size}`;
      });
  }, MIN_TARGET);
}

/** At 320 px: no horizontal scrolling, 44×44 px targets, axe-core, and the picture. */
async function checkNarrow(page: Page, view: GalleryView, theme: Theme): Promise<void> {
  await page.setViewportSize({ width: 320, height: 640 });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect.soft(scrollWidth, 'page width (no horizontal scrolling)').toBeLessThanOrEqual(clientWidth);
  expect.soft(await smallTargets(page), `targets under ${MIN_TARGET}×${MIN_TARGET} px`).toEqual([]);
  await expectNoAxeViolations(page);
  await expect(page.locator('.doorway')).toHaveScreenshot(['320', `${view}-${theme}.png`], PICTURE);
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme, viewport: { width: 1280, height: 800 } });

    // One page per card and theme, both widths: the card's page loads once for its two pictures.
    for (const view of GALLERY_VIEWS) {
      test(`${view} looks as in docs/cards/${view}-${theme}.png; at 320 px it fits, has 44×44 px targets, passes axe-core and looks as in docs/cards/320/${view}-${theme}.png`, async ({
        page,
      }) => {
        await openCard(page, view, theme);
        await expect(page.locator('.doorway')).toHaveScreenshot(`${view}-${theme}.png`, PICTURE);
        await checkNarrow(page, view, theme);
      });
    }

    test(`the chooser marks the option last used, as in docs/cards/providerChooser-lastUsed-${theme}.png`, async ({
      page,
    }) => {
      await openCard(page, 'providerChooser', theme, '&lastUsed=github.com');
      const github = page.getByRole('button', { name: 'Sign in with GitHub', exact: true });
      await expect(github).toHaveAccessibleDescription('Last used');
      await expect(page.locator('.doorway')).toHaveScreenshot(
        `providerChooser-lastUsed-${theme}.png`,
        PICTURE,
      );
    });
  });
}
