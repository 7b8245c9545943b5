/**
 * A pure function of a key computed once per key, for what every request asks again of the few
 * values its key takes (a route, a header's usual value). `max` bounds the memory a flood of
 * distinct keys can take: past it, everything is forgotten.
 */
export function memoized<K, V>(compute: (key: K) => V, max = 1_000): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    if (values.has(key)) return values.get(key) as V;
    if (values.size >= max) values.clear();
    const value = compute(key);
    values.set(key, value);
    return value;
  };
}
