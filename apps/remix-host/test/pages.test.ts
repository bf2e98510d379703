import { describe, expect, it } from 'vitest';
import { loginPage } from '../app/form-path.server.ts';
import { request } from './fakes.ts';

const config = { successUrl: '/account', allowedOrigins: ['https://app.example.com'] };

describe('loginPage', () => {
  it('should honour a safe signInSuccessUrl, as a path when same-origin', () => {
    expect(loginPage(request('/login?signInSuccessUrl=%2Fdocs%3Fa%3D1'), config)).toEqual({
      successUrl: '/docs?a=1',
      signedOut: false,
      origin: 'http://127.0.0.1:3000',
    });
    expect(
      loginPage(request('/login?signInSuccessUrl=https%3A%2F%2Fapp.example.com%2Fx'), config).successUrl,
    ).toBe('https://app.example.com/x');
  });

  it.each([
    'javascript:alert(1)',
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'https:evil.example',
    // Resolve to `//evil.example` on this origin (issue 12).
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/x/..//evil.example',
    'http://127.0.0.1:3000//evil.example',
  ])('should replace %j with the configured success URL', (hostile) => {
    const page = loginPage(request(`/login?signInSuccessUrl=${encodeURIComponent(hostile)}`), config);
    expect(page.successUrl).toBe('/account');
  });

  it('should see the sign-out return', () => {
    expect(loginPage(request('/login?signedOut=1'), config).signedOut).toBe(true);
  });
});
