/**
 * Keras-layer groups of the report graph: which weights belong to which layer, which layers lie
 * on a severed path, and which nodes a collapsed layer hides.
 *
 * Pure. A `group` node is a Keras layer; the report carries no per-op detail inside a layer, so
 * "expanding" a layer shows its weights (and the findings on the layer's line), nothing more.
 */
import { Finding, GraphNode, Report } from './types';

/** One Keras layer of the graph and what expanding it shows. */
export interface LayerGroup {
  /** The report's node id of the layer. */
  readonly id: string;
  /** The layer's node. */
  readonly node: GraphNode;
  /** The weights (variable nodes) that feed only this layer. */
  readonly weights: GraphNode[];
  /** Labels of this layer's weights that a finding says get no gradient. */
  readonly cutWeights: string[];
  /** True when a cut weight belongs to the layer or a severed or zero edge touches it. */
  readonly severed: boolean;
  /** Findings located on the layer's line in the report's own cell. */
  readonly findings: Finding[];
}

/** The Keras layers of a report's graph, in graph order. */
export function layerGroups(report: Report): LayerGroup[] {
  const nodes = report.graph?.nodes ?? [];
  const edges = report.graph?.edges ?? [];
  const byId = new Map(nodes.map(n => [n.id, n]));
  const cut = new Set(report.findings.flatMap(f => f.variables ?? []));
  const own = report.cell.execution_count;
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
      const touchesCut = edges.some(e => e.state !== 'connected' && (e.source === node.id || e.target === node.id));
      const findings = report.findings.filter(f => {
        const loc = f.location;
        const count = loc?.execution_count;
        return !!loc && node.line !== null && node.line !== undefined && loc.line === node.line &&
          (count === null || count === undefined || count === own);
      });
      return { id: node.id, node, weights, cutWeights, severed: cutWeights.length > 0 || touchesCut, findings };
    });
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
