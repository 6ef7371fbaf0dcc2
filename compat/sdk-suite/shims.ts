/**
 * The built-ins SDK 1.9.0's suite uses that Node 20 lacks, and nothing else: `Promise.withResolvers`
 * (Node 22), `Map.groupBy` and `Object.groupBy` (Node 21). Each is defined only where missing, so on
 * Node 22 this file changes nothing.
 */
type Resolvers<T> = { promise: Promise<T>; resolve: (value: T | PromiseLike<T>) => void; reject: (reason?: unknown) => void };

const promise = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
promise.withResolvers ??= <T>(): Resolvers<T> => {
  let resolve!: Resolvers<T>["resolve"];
  let reject!: Resolvers<T>["reject"];
  const made = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise: made, resolve, reject };
};

const map = Map as unknown as { groupBy?: <K, T>(items: Iterable<T>, key: (item: T, index: number) => K) => Map<K, T[]> };
map.groupBy ??= <K, T>(items: Iterable<T>, key: (item: T, index: number) => K): Map<K, T[]> => {
  const groups = new Map<K, T[]>();
  let index = 0;
  for (const item of items) {
    const k = key(item, index++);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
};

const object = Object as unknown as { groupBy?: <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) => Partial<Record<PropertyKey, T[]>> };
object.groupBy ??= <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey): Partial<Record<PropertyKey, T[]>> => {
  const groups: Partial<Record<PropertyKey, T[]>> = Object.create(null) as Partial<Record<PropertyKey, T[]>>;
  let index = 0;
  for (const item of items) {
    const k = key(item, index++);
    (groups[k] ??= []).push(item);
  }
  return groups;
};
