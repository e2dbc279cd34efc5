/**
 * Stands in for `side-channel` in the browser build (vite.config.ts): qs (Refine's URL state) keeps its
 * cycle and overflow marks there, and the package brings object-inspect and get-intrinsic (~10 kB compressed)
 * for an error message and for old engines. The same store as its WeakMap flavour: objects in a WeakMap,
 * other keys in a Map. CommonJS because qs require()s it.
 */
module.exports = function getSideChannel() {
  const objects = new WeakMap();
  const others = new Map();
  const store = (key) => (key !== null && (typeof key === "object" || typeof key === "function") ? objects : others);
  const channel = {
    assert(key) {
      if (!channel.has(key)) throw new TypeError(`Side channel does not contain ${Object(key) === key ? "the given object key" : String(key)}`);
    },
    delete: (key) => store(key).delete(key),
    get: (key) => store(key).get(key),
    has: (key) => store(key).has(key),
    set: (key, value) => {
      store(key).set(key, value);
    },
  };
  return channel;
};
