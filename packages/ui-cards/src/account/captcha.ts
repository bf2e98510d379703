/**
 * The captcha of a phone enrolment: a fresh verifier of the provider for every code sent, each in an element
 * of its own inside the step's captcha container (a spent reCAPTCHA widget cannot be rendered again in the
 * same element).
 * @module
 */
import type { CaptchaVerifier } from '@doorway/auth-core';
import { type Ref, useCallback, useEffect, useRef } from 'react';
import type { AccountProvider } from './env.ts';

interface Live {
  verifier: CaptchaVerifier;
  rendered: Promise<void>;
  element: HTMLElement | null;
}

/** What {@link useEnrolCaptcha} gives a step. */
export interface EnrolCaptcha {
  /** The element to render captchas into (`<div ref={containerRef}>`, in the step's form). */
  containerRef: Ref<HTMLDivElement>;
  /** Creates and renders a verifier now unless one is live (so a visible captcha shows before sending). */
  prepare(): void;
  /** The live verifier, created and rendered first if there is none. Rejects as its `render` does. */
  take(): Promise<CaptchaVerifier>;
  /** Clears a verifier that was sent with (or failed to render); `renew` prepares the next one at once. */
  spend(verifier: CaptchaVerifier, renew: boolean): void;
}

/** Captchas of `provider` for the phone steps; a live one is cleared when the steps go. */
export function useEnrolCaptcha(provider: AccountProvider): EnrolCaptcha {
  const containerRef = useRef<HTMLDivElement>(null);
  const live = useRef<Live | null>(null);

  const open = useCallback((): Live => {
    if (live.current) return live.current;
    const container = containerRef.current;
    const element = container ? container.ownerDocument.createElement('div') : null;
    if (container && element) container.appendChild(element);
    const verifier = provider.createCaptchaVerifier(element);
    const rendered = verifier.render();
    rendered.catch(() => undefined); // `take` reports it; an unused verifier's failure is no one's concern
    live.current = { verifier, rendered, element };
    return live.current;
  }, [provider]);

  const take = useCallback(async () => {
    const { verifier, rendered } = open();
    await rendered;
    return verifier;
  }, [open]);

  const spend = useCallback(
    (verifier: CaptchaVerifier, renew: boolean) => {
      const current = live.current;
      if (current?.verifier === verifier) {
        live.current = null;
        current.element?.remove();
      }
      verifier.clear();
      if (renew) open();
    },
    [open],
  );

  useEffect(
    () => () => {
      const current = live.current;
      live.current = null;
      current?.verifier.clear();
      current?.element?.remove();
    },
    [],
  );

  const prepare = useCallback(() => void open(), [open]);
  return { containerRef, prepare, take, spend };
}
