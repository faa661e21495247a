// A map of regions joined by borders: the mirror of the engine's engine/core/region_graph.h (same
// names, same results and the same refusals on the shared vectors, tests/geometry/vectors.json),
// for boards that show what is next to what or how far a region is. Regions are indices into the
// list the graph was built from; find() and id() convert.

export class RegionGraph {
  private readonly ids: readonly string[];
  private readonly index: ReadonlyMap<string, number>;
  private readonly adjacency: readonly number[][];

  private constructor(ids: readonly string[], index: Map<string, number>, adjacency: number[][]) {
    this.ids = ids;
    this.index = index;
    this.adjacency = adjacency;
  }

  /**
   * `edges` are borders, each listed once. Throws an Error whose message is the engine's refusal
   * ("bad_data: ..."): an empty or repeated id, an unknown region, a region bordering itself, a
   * border listed twice.
   */
  static build(ids: readonly string[], edges: readonly (readonly [string, string])[]): RegionGraph {
    const refuse = (reason: string) => new Error(`bad_data: ${reason}`);
    const index = new Map<string, number>();
    ids.forEach((id, i) => {
      if (id === "") throw refuse(`region ${i} has an empty id`);
      if (index.has(id)) throw refuse(`region "${id}" is listed twice`);
      index.set(id, i);
    });
    const adjacency: number[][] = ids.map(() => []);
    edges.forEach(([a, b], e) => {
      const where = `border ${e} (${a} - ${b})`;
      const ia = index.get(a), ib = index.get(b);
      if (ia === undefined || ib === undefined) throw refuse(`${where}: unknown region "${ia === undefined ? a : b}"`);
      if (ia === ib) throw refuse(`${where}: a region cannot border itself`);
      if (adjacency[ia].includes(ib)) throw refuse(`${where}: listed twice`);
      adjacency[ia].push(ib);
      adjacency[ib].push(ia);
    });
    for (const n of adjacency) n.sort((x, y) => x - y);
    return new RegionGraph([...ids], index, adjacency);
  }

  get size(): number {
    return this.ids.length;
  }

  id(region: number): string {
    return this.ids[this.check(region)];
  }

  /** -1 when no region has this id. */
  find(id: string): number {
    return this.index.get(id) ?? -1;
  }

  /** Ordered by index. */
  neighbours(region: number): readonly number[] {
    return this.adjacency[this.check(region)];
  }

  adjacent(a: number, b: number): boolean {
    this.check(b);
    return this.neighbours(a).includes(b);
  }

  /** Border crossings from `from` to every region, by index; -1 where it cannot be reached. */
  distances(from: number): number[] {
    return this.search(from).distance;
  }

  /** From `from` to `to`, both included, fewest crossings (lower indices first on ties); [] when unreachable. */
  shortestPath(from: number, to: number): number[] {
    this.check(to);
    const { distance, previous } = this.search(from);
    if (distance[to] < 0) return [];
    const path: number[] = [];
    for (let r = to; r >= 0; r = previous[r]) path.push(r);
    return path.reverse();
  }

  /** Every region at most n crossings from `from` (itself included), ordered by index. */
  withinSteps(from: number, n: number): number[] {
    const out: number[] = [];
    this.distances(from).forEach((d, r) => {
      if (d >= 0 && d <= n) out.push(r);
    });
    return out;
  }

  /** Groups of regions joined by borders, each ordered by index, ordered by their first region. */
  components(): number[][] {
    const seen = new Array<boolean>(this.size).fill(false);
    const out: number[][] = [];
    for (let start = 0; start < this.size; start++) {
      if (seen[start]) continue;
      const group: number[] = [];
      this.distances(start).forEach((d, r) => {
        if (d >= 0) {
          seen[r] = true;
          group.push(r);
        }
      });
      out.push(group);
    }
    return out;
  }

  private check(region: number): number {
    if (!Number.isInteger(region) || region < 0 || region >= this.size) {
      throw new Error(`no region ${region} (of ${this.size})`);
    }
    return region;
  }

  private search(from: number): { distance: number[]; previous: number[] } {
    this.check(from);
    const distance = new Array<number>(this.size).fill(-1);
    const previous = new Array<number>(this.size).fill(-1);
    distance[from] = 0;
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const r = queue[i];
      for (const n of this.adjacency[r]) {
        if (distance[n] >= 0) continue;
        distance[n] = distance[r] + 1;
        previous[n] = r;
        queue.push(n);
      }
    }
    return { distance, previous };
  }
}
