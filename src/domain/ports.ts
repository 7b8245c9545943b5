/**
 * The handle every port of the domain's storage takes (architecture.md 6.3): the store's, or a
 * bank's own store's. The repositories are declared per aggregate (payment/ports.ts,
 * consent/ports.ts) and gathered in deps.ts.
 */

/**
 * A transaction of the store, or its database outside one: opaque to the domain, which cannot
 * query with it and only hands it back to the store. Its one member is what every handle of the
 * store already answers, so the store passes its own handles as they are.
 */
export interface Tx { readonly isTransaction: boolean }
