/**
 * The report's loss→weights graph as Graphviz DOT, with the front end's styles.
 *
 * Pure. Every string from the report goes through {@link dotString}, so a label can never
 * close its quotes, start an HTML-like label or use Graphviz's `\N`-style escapes. Graphviz
 * only ever sees ids this module makes (`n0`, `e0`, …), never ids from the report.
 */
import { hiddenNodes, layerGroups } from './groups';
import { GraphEdge, GraphNode, Report } from './types';

/** Edge styles; the legend and the DOT both read them, so they cannot disagree. */
export const EDGE_STYLE = {
  connected: { color: '#6b7280', style: 'solid', penwidth: 1.2 },
  severed: { color: '#dc2626', style: 'dashed', penwidth: 2.2 },
  zero: { color: '#d97706', style: 'dotted', penwidth: 2.2 },
  design: { color: '#9ca3af', style: 'dashed', penwidth: 1.2 }
} as const;

/** How an edge is drawn: {@link EDGE_STYLE}'s keys. */
export type EdgeLook = keyof typeof EDGE_STYLE;

/**
 * How to draw an edge. A `severed` edge is a cut (red) only when a finding of the report marks
 * it; one no finding names carries no gradient by design (an integer mask, the condition of a
 * `tf.where`, a branch of a weight that is connected anyway) and is drawn neutral, so a clean
 * report shows no red.
 */
export function edgeLook(e: GraphEdge, findingIds: ReadonlySet<string>): EdgeLook {
  if (e.state === 'severed') {
    return e.finding && findingIds.has(e.finding) ? 'severed' : 'design';
  }
  return e.state === 'zero' ? 'zero' : 'connected';
}

/** The index (in `report.graph.edges`) of the cut to show first, or -1 when there is none. */
export function firstCut(report: Report, order: readonly string[] = []): number {
  const edges = report.graph?.edges ?? [];
  const ids = new Set(report.findings.map(f => f.id));
  const cuts = edges.map((e, i) => [e, i] as const).filter(([e]) => edgeLook(e, ids) === 'severed');
  for (const id of order) {
    const hit = cuts.find(([e]) => e.finding === id);
    if (hit) {
      return hit[1];
    }
  }
  return cuts.length ? cuts[0][1] : -1;
}

/** Node styles by kind (shape, fill). */
export const NODE_STYLE: Record<string, { shape: string; fill: string }> = {
  loss: { shape: 'doubleoctagon', fill: '#fde68a' },
  variable: { shape: 'box', fill: '#dbeafe' },
  op: { shape: 'ellipse', fill: '#f3f4f6' },
  host: { shape: 'note', fill: '#fce7f3' },
  group: { shape: 'box3d', fill: '#e0e7ff' }
};

/** The longest label drawn; longer ones end with an ellipsis. */
export const MAX_LABEL = 48;

/** Quote any text as a DOT string literal that Graphviz shows verbatim. */
export function dotString(text: string): string {
  let s = String(text);
  if (s.length > MAX_LABEL) {
    s = s.slice(0, MAX_LABEL - 1) + '…';
  }
  s = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `"${s}"`;
}

/** Quote several lines as one DOT label (centred lines). */
export function dotLines(lines: string[]): string {
  return '"' + lines.map(l => dotString(l).slice(1, -1)).join('\\n') + '"';
}

/** What the DOT's generated ids stand for, so the view can map SVG back to the report. */
export interface DotIndex {
  /** `n<i>` → node of the report. */
  nodes: GraphNode[];
  /** `e<i>` → edge of the report. */
  edges: GraphEdge[];
}

/** The DOT text for a report's graph, and the index of its generated ids. */
export interface DotResult {
  dot: string;
  index: DotIndex;
}

/** Is there a graph worth drawing? */
export function hasGraph(report: Report): boolean {
  return (report.graph?.nodes?.length ?? 0) > 0;
}

/** Options of {@link reportToDot}. */
export interface DotOptions {
  /** Layout direction (default left to right). */
  rankdir?: 'LR' | 'TB';
  /**
   * Draw Keras layers collapsed, except the ones in this set: a collapsed layer hides its
   * weights and says how many it has. Without this option every node is drawn.
   */
  expanded?: ReadonlySet<string>;
  /** The translated "N weights" text of a layer's label (the view passes `trans()._n`). */
  weightsLabel?: (count: number) => string;
}

/**
 * Build DOT text for the report's graph (a cut: red dashed ✂ + rule code; zero: amber dotted;
 * no gradient by design: grey dashed, see {@link edgeLook}).
 */
export function reportToDot(report: Report, options: DotOptions = {}): DotResult {
  const nodes = report.graph?.nodes ?? [];
  const edges = report.graph?.edges ?? [];
  const groups = options.expanded ? layerGroups(report) : [];
  const hidden = options.expanded ? hiddenNodes(groups, options.expanded) : new Set<string>();
  const weightCount = new Map(groups.map(g => [g.id, g.weights.length]));
  const ruleOf = new Map<string, string>(report.findings.map(f => [f.id, f.rule]));
  const findingIds = new Set(ruleOf.keys());
  const idOf = new Map<string, string>();
  nodes.forEach((n, i) => idOf.set(n.id, `n${i}`));
  const out: string[] = [
    'digraph tapemagic {',
    `  graph [rankdir=${options.rankdir === 'TB' ? 'TB' : 'LR'}, bgcolor="transparent", fontname="Helvetica", fontsize=10, nodesep=0.25, ranksep=0.45];`,
    '  node [style="filled,rounded", fontname="Helvetica", fontsize=10, penwidth=0.8, color="#4b5563", margin="0.1,0.04"];',
    '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];'
  ];
  nodes.forEach((n, i) => {
    if (hidden.has(n.id)) {
      return;
    }
    const st = NODE_STYLE[n.kind] ?? NODE_STYLE.op;
    // the node's place as every output names it (`In[4], line 14`), Python's `where`
    const place = n.where || (n.line ? `line ${n.line}` : '');
    const lines = place ? [n.label, place] : [n.label];
    const count = weightCount.get(n.id);
    if (count) {
      const text = options.weightsLabel ? options.weightsLabel(count) : `${count} weights`;
      lines.push(`${options.expanded!.has(n.id) ? '▾' : '▸'} ${text}`);
    }
    const label = lines.length > 1 ? dotLines(lines) : dotString(n.label);
    out.push(`  n${i} [id="tm-n${i}", label=${label}, shape=${st.shape}, fillcolor="${st.fill}"];`);
  });
  edges.forEach((e, i) => {
    const a = idOf.get(e.source);
    const b = idOf.get(e.target);
    if (!a || !b || hidden.has(e.source) || hidden.has(e.target)) {
      return;
    }
    const look = edgeLook(e, findingIds);
    const st = EDGE_STYLE[look];
    const attrs = [`id="tm-e${i}"`, `color="${st.color}"`, `style=${st.style}`, `penwidth=${st.penwidth}`];
    if (look === 'severed') {
      const code = (e.finding && ruleOf.get(e.finding)) || '';
      const lines = [('✂ ' + code).trim()];
      if (e.label) {
        lines.push(e.label);
      }
      attrs.push(`label=${dotLines(lines)}`, `fontcolor="${st.color}"`);
    } else if (look === 'zero') {
      attrs.push(`label=${dotString(e.label || '0')}`, `fontcolor="${st.color}"`);
    } else if (e.label) {
      attrs.push(`label=${dotString(e.label)}`);
    }
    out.push(`  ${a} -> ${b} [${attrs.join(', ')}];`);
  });
  out.push('}');
  return { dot: out.join('\n'), index: { nodes, edges } };
}
