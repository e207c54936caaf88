/**
 * The first cycle reachable from `start` in the dependency graph, as a path that ends where it starts
 * (`[a, b, a]`), or null. `graph` maps a slug to the slugs it depends on; unknown slugs have none.
 */
export function findCycle(start: string, graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (slug: string): string[] | null => {
    if (onPath.has(slug)) return [...path.slice(path.indexOf(slug)), slug];
    if (done.has(slug)) return null;
    path.push(slug);
    onPath.add(slug);
    for (const next of graph.get(slug) ?? []) {
      const cycle = visit(next);
      if (cycle !== null) return cycle;
    }
    path.pop();
    onPath.delete(slug);
    done.add(slug);
    return null;
  };
  return visit(start);
}
