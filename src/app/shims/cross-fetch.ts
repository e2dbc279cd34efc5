/**
 * Stands in for `cross-fetch` in the browser build (vite.config.ts): graphql-request imports it, and its
 * browser build carries a whole fetch polyfill (17 kB) that every browser we support makes useless.
 */
const fetchNative: typeof fetch = (input, init) => globalThis.fetch(input, init);
export default fetchNative;
export const Headers = globalThis.Headers;
export const Request = globalThis.Request;
export const Response = globalThis.Response;
