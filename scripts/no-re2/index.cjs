// superstatic (pulled in by firebase-tools) requires re2 in a try/catch and falls back to RegExp when it
// is missing; the Auth emulator never reads its patterns. Failing here keeps that fallback while sparing
// every install a node-gyp build of re2's C++.
const error = new Error("Cannot find module 're2' (replaced by an empty package in the root package.json)");
error.code = 'MODULE_NOT_FOUND';
throw error;
