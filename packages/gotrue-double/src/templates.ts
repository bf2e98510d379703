/**
 * GoTrue's mail templates and how the double renders them (Go's html/template escaping of `{{ .Name }}`).
 * @module
 */
import type { DoubleTemplateName } from './types.ts';

/** GoTrue's default templates (internal/mailer/template.go), which link to `{{ .ConfirmationURL }}`. */
export const GOTRUE_DEFAULT_TEMPLATES: Readonly<Record<DoubleTemplateName, string>> = {
  confirmation:
    '<h2>Confirm your email</h2>\n\n<p>Follow this link to confirm your email:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your email address</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  magicLink:
    '<h2>Magic Link</h2>\n\n<p>Follow this link to login:</p>\n<p><a href="{{ .ConfirmationURL }}">Log In</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  recovery:
    '<h2>Reset password</h2>\n\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset password</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  emailChange:
    '<h2>Confirm email address change</h2>\n\n<p>Follow this link to confirm the update of your email address from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change email address</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  invite:
    '<h2>You have been invited</h2>\n\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
};

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
}

/** Undoes {@link render}'s escaping (for the link read back out of a mail). */
export function decodeHtml(s: string): string {
  return s.replace(/&#34;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A template with every `{{ .Key }}` replaced by `data[key]`, HTML-escaped. */
export function render(template: string, data: Record<string, string>): string {
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, key: string) => escapeHtml(data[key] ?? ''));
}
