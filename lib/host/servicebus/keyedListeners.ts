/** Listeners by key (a queue or container name): engines call `emit` after a write so pumps wake at once. */
export class KeyedListeners {
  private readonly byKey = new Map<string, Set<() => void>>();

  /** Adds a listener; returns the function that removes it. */
  on(key: string, listener: () => void): () => void {
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  emit(key: string): void {
    const set = this.byKey.get(key);
    if (!set) return;
    for (const listener of set) listener();
  }
}
