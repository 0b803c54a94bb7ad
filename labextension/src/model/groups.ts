/**
 * Keras-layer groups of the report graph: which weights belong to which layer, which layers lie
 * on a severed path, and which nodes a collapsed layer hides.
 *
 * Pure. A `group` node is a Keras layer; the report carries no per-op detail inside a layer, so
 * "expanding" a layer shows its weights (and the findings on the layer's line), nothing more.
 */
import { nodePlace, samePlace } from './report';
import { Finding, GraphNode, Report } from './types';

/** One Keras layer of the graph and what expanding it shows. */
export interface LayerGroup {
  /** The report's node id of the layer. */
  readonly id: string;
  /** The layer's node. */
  readonly node: GraphNode;
  /** Where the layer is (`In[N] line L`, `''` when unknown): named as a finding's place. */
  readonly place: string;
  /** The weights (variable nodes) that feed only this layer. */
  readonly weights: GraphNode[];
  /** Labels of this layer's weights that a finding says get no gradient. */
  readonly cutWeights: string[];
  /**
   * True when the layer is on a severed path: a weight of its own gets no gradient, or it lies
   * between a cut weight and the cut a finding names (see {@link severedPath}).
   */
  readonly severed: boolean;
  /** Findings whose cut lies in the layer, or located at the layer's place (cell and line). */
  readonly findings: Finding[];
}

/** The Keras layers of a report's graph, in graph order. */
export function layerGroups(report: Report): LayerGroup[] {
  const nodes = report.graph?.nodes ?? [];
  const edges = report.graph?.edges ?? [];
  const byId = new Map(nodes.map(n => [n.id, n]));
  const cut = new Set(report.findings.flatMap(f => f.variables ?? []));
  const onSeveredPath = severedPath(report);
  const targets = new Map<string, Set<string>>();
  for (const e of edges) {
    if (byId.get(e.source)?.kind === 'variable') {
      const set = targets.get(e.source) ?? new Set<string>();
      set.add(e.target);
      targets.set(e.source, set);
    }
  }
  return nodes
    .filter(n => n.kind === 'group')
    .map(node => {
      const weights = nodes.filter(n => {
        const t = targets.get(n.id);
        return n.kind === 'variable' && t !== undefined && t.size === 1 && t.has(node.id);
      });
      const cutWeights = weights.map(w => w.label).filter(l => cut.has(l));
      // the layer's own nodes: itself, and the lines of the user's code run inside it
      const mine = new Set(nodes.filter(n => n.id === node.id || (n.kind === 'op' && !!node.group && n.group === node.group)).map(n => n.id));
      const findings = report.findings.filter(
        f => edges.some(e => e.finding === f.id && (mine.has(e.source) || mine.has(e.target))) || samePlace(report, node, f)
      );
      const severed = cutWeights.length > 0 || onSeveredPath.has(node.id);
      return { id: node.id, node, place: nodePlace(report, node), weights, cutWeights, severed, findings };
    });
}

/**
 * The nodes on a severed path: from a weight a finding says gets no gradient, forward, up to
 * and including the node where a cut that finding names starts (a severed edge's source, a
 * zero edge's target). Past the cut the gradient flows again: a healthy layer after it, and
 * the loss, are not on a severed path.
 */
export function severedPath(report: Report): Set<string> {
  const nodes = report.graph?.nodes ?? [];
  const edges = report.graph?.edges ?? [];
  const named = new Set(report.findings.map(f => f.id));
  const cutVars = new Set(report.findings.flatMap(f => f.variables ?? []));
  const isCut = (e: (typeof edges)[number]): boolean => !!e.finding && named.has(e.finding) && e.state !== 'connected';
  const walk = (starts: string[], step: (id: string) => string[]): Set<string> => {
    const seen = new Set<string>(starts);
    const todo = [...starts];
    while (todo.length) {
      for (const next of step(todo.pop()!)) {
        if (!seen.has(next)) {
          seen.add(next);
          todo.push(next);
        }
      }
    }
    return seen;
  };
  // forward from the cut weights, never across a cut
  const ahead = walk(
    nodes.filter(n => n.kind === 'variable' && cutVars.has(n.label)).map(n => n.id),
    id => edges.filter(e => e.source === id && !isCut(e)).map(e => e.target)
  );
  // back from where each cut starts
  const behind = walk(edges.filter(isCut).map(e => e.source), id => edges.filter(e => e.target === id).map(e => e.source));
  const on = new Set([...ahead].filter(id => behind.has(id)));
  // a zero edge's target holds the op that zeroed the gradient: the cut is in it
  edges.filter(e => isCut(e) && e.state === 'zero' && on.has(e.source)).forEach(e => on.add(e.target));
  return on;
}

/** The layers shown expanded at first: those on a severed path. */
export function defaultExpanded(groups: readonly LayerGroup[]): Set<string> {
  return new Set(groups.filter(g => g.severed).map(g => g.id));
}

/** The node ids a drawing hides: the weights of every layer not in `expanded`. */
export function hiddenNodes(groups: readonly LayerGroup[], expanded: ReadonlySet<string>): Set<string> {
  const hidden = new Set<string>();
  for (const g of groups) {
    if (!expanded.has(g.id)) {
      g.weights.forEach(w => hidden.add(w.id));
    }
  }
  return hidden;
}
