/**
 * Loaded (`node --import`) only into the PostGraphile 5 server of scripts/bench-postgraphile.sh
 * when it runs on Node 20: PostGraphile 5 (grafast, @dataplan/pg, grafserv) calls
 * `Promise.withResolvers`, which Node has from 22 on; without it its connection fields fail at
 * run time ("Cannot read properties of undefined (reading 'items')"). The polyfill is the
 * specification's: a new promise and the functions that settle it.
 */
if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers() {
      let resolve;
      let reject;
      const promise = new this((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
