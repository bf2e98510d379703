/** Where the host mounts the Firebase passkey server (`routes/passkeys.$.ts`); the browser provider's endpoint. */
export const PASSKEYS_PATH = '/passkeys';
