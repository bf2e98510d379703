/**
 * `@doorway/auth-core/server`: the flow engine on a server. A host posts its cards as plain HTML forms;
 * the server runs the same pure `transition` with a {@link ServerAuthProvider} and renders the next card.
 * @module
 */
export { SERVER_OPS, type ServerAuthProvider } from './serverProvider.ts';
