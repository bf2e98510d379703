/** What the account sections' tests ask of the page, and the account they sign in as. */
import { screen } from '@testing-library/react';

export const EMAIL = 'ann@example.com';
export const PASSWORD = 'secret-123';

/** The element with focus. */
export const active = () => document.activeElement as HTMLElement;
/** A section's heading. */
export const heading = (name: string) => screen.getByRole('heading', { level: 2, name });
/** What the polite region says. */
export const polite = () => screen.getByRole('status').textContent?.trim();
/** What the assertive region says. */
export const alert = () => screen.getByRole('alert').textContent?.trim();
