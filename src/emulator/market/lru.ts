/**
 * A small least-recently-used cache on top of Map's insertion order. Bounds memory for the
 * per-(instrument, month) bar cache: a whole-market history would not fit an isolate.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>()

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key)
    if (v !== undefined) {
      // Re-insert to mark as most recently used.
      this.map.delete(key)
      this.map.set(key, v)
    }
    return v
  }

  set(key: K, value: V): void {
    if (this.map.has(key)) this.map.delete(key)
    else if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value as K)
    this.map.set(key, value)
  }

  get size(): number {
    return this.map.size
  }

  clear(): void {
    this.map.clear()
  }
}
