/** The header of every page (Remix-rendered and static). */
export function SiteHeader() {
  return (
    <header className="host-header">
      <a href="/" className="host-brand">
        Doorway
      </a>
      <nav aria-label="Main">
        <a href="/login">Sign in</a>
        <a href="/account">Account</a>
      </nav>
    </header>
  );
}
