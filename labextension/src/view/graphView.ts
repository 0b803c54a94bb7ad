/**
 * The loss→weights graph: legend + SVG laid out by Graphviz, optionally pannable and zoomable.
 */
import { trans } from '../i18n';
import { cutFocus, hasGraph, reportToDot, EDGE_STYLE, NODE_STYLE } from '../model/graph';
import { nameNodes } from './labels';
import { sortedFindings } from '../model/report';
import { defaultExpanded, layerGroups } from '../model/groups';
import { Finding, Report } from '../model/types';
import { h } from './dom';
import { layersView } from './groupsView';
import { renderDot } from './svg';
import { attachPanZoom } from './panzoom';
import { sizeLegibly } from './legible';

/** Options of {@link renderGraph}. */
export interface GraphOptions {
  /** Allow panning (drag) and zooming (wheel, buttons). */
  panZoom?: boolean;
  /** Layout direction: left to right (output area) or top to bottom (narrow side panel). */
  rankdir?: 'LR' | 'TB';
  /** Draw Keras layers collapsed (severed ones expanded), with a list to expand them. */
  groups?: boolean;
  /** Called when the user clicks a finding listed under a layer. */
  onReveal?: (finding: Finding) => void;
}

function legend(): HTMLElement {
  const item = (cls: string, label: string, color: string, dash: string): HTMLElement => {
    const swatch = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    swatch.setAttribute('width', '28');
    swatch.setAttribute('height', '8');
    swatch.setAttribute('aria-hidden', 'true');
    const ln = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    for (const [k, v] of Object.entries({ x1: '0', y1: '4', x2: '28', y2: '4', stroke: color, 'stroke-width': '2.2' })) {
      ln.setAttribute(k, v);
    }
    if (dash) {
      ln.setAttribute('stroke-dasharray', dash);
    }
    swatch.appendChild(ln);
    return h('span', { class: `jp-tapemagic-legend-item ${cls}` }, swatch, label);
  };
  const node = (kind: string, label: string): HTMLElement => {
    const box = h('span', { class: 'jp-tapemagic-legend-node' });
    box.style.background = (NODE_STYLE[kind] ?? NODE_STYLE.op).fill;
    return h('span', { class: 'jp-tapemagic-legend-item' }, box, label);
  };
  return h(
    'div',
    { class: 'jp-tapemagic-legend', attrs: { 'aria-label': trans().__('Legend') } },
    item('jp-mod-connected', trans().__('gradient flows'), EDGE_STYLE.connected.color, ''),
    item('jp-mod-severed', trans().__('✂ severed (rule code)'), EDGE_STYLE.severed.color, '6 3'),
    item('jp-mod-zero', trans().__('zero at runtime'), EDGE_STYLE.zero.color, '1.5 2.5'),
    item('jp-mod-design', trans().__('no gradient by design'), EDGE_STYLE.design.color, '4 3'),
    node('loss', trans().__('loss')),
    node('variable', trans().__('weight')),
    node('op', trans().__('op')),
    node('host', trans().__('host / NumPy')),
    node('group', trans().__('Keras layer'))
  );
}

/**
 * Draw the report's graph into a new element. Resolves once the layout is done; a layout
 * failure shows a short message instead of the graph.
 */
export function renderGraph(report: Report, options: GraphOptions = {}): { node: HTMLElement; done: Promise<void> } {
  const newCanvas = (...children: HTMLElement[]): HTMLElement => h('div', { class: 'jp-tapemagic-graph-canvas' }, ...children);
  let canvas = newCanvas(h('span', { class: 'jp-tapemagic-muted' }, trans().__('Laying out the graph…')));
  const node = h('div', { class: 'jp-tapemagic-graph' }, legend(), canvas);
  const groups = options.groups && hasGraph(report) ? layerGroups(report) : [];
  const expanded = defaultExpanded(groups);
  // The structured graph is drawn with the front end's styles (matching the legend); a report
  // with only DOT text is laid out as is. Either way the SVG goes through the allowlist copy.
  const dotText = (): string =>
    hasGraph(report)
      ? reportToDot(report, {
          rankdir: options.rankdir,
          expanded: groups.length ? expanded : undefined,
          weightsLabel: n => trans()._n('%1 weight', '%1 weights', n, n)
        }).dot
      : report.dot ?? '';
  if (!dotText().trim()) {
    canvas.replaceChildren(h('span', { class: 'jp-tapemagic-muted' }, trans().__('This report has no graph.')));
    return { node, done: Promise.resolve() };
  }
  /** Lay out into a fresh canvas (so pan and zoom start over with their own listeners). */
  const draw = (): Promise<void> =>
    renderDot(dotText()).then(
      svg => {
        svg.classList.add('jp-tapemagic-svg');
        const next = newCanvas();
        next.appendChild(svg);
        canvas.replaceWith(next);
        canvas = next;
        nameNodes(svg, report);
        // The graph opens on the cuts and the weights they cut, the first finding shown (cards
        // are in this order) first.
        const want = cutFocus(report, sortedFindings(report).map(f => f.id));
        const pick = (part: { edges: number[]; nodes: number[] }): Element[] =>
          [...part.edges.map(i => `e${i}`), ...part.nodes.map(i => `n${i}`)]
            .map(id => svg.querySelector(`[data-tm="${id}"]`))
            .filter((el): el is Element => el !== null);
        const focus = { all: pick(want.all), first: pick(want.first) };
        if (options.panZoom) {
          node.classList.add('jp-mod-panzoom');
          attachPanZoom(next, svg, focus);
        } else {
          sizeLegibly(next, svg, focus);
        }
      },
      (err: unknown) => {
        canvas.replaceChildren(
          h('span', { class: 'jp-tapemagic-muted' }, trans().__('The graph could not be laid out: %1', String((err as Error)?.message ?? err)))
        );
      }
    );
  if (groups.length) {
    const toggle = (id: string): void => {
      expanded.has(id) ? expanded.delete(id) : expanded.add(id);
      list.refresh();
      void draw();
    };
    const list = layersView(groups, expanded, { onToggle: toggle, onReveal: options.onReveal });
    node.append(list.node);
    node.addEventListener('click', ev => {
      const id = (ev.target as Element).closest('[data-tm]')?.getAttribute('data-tm') ?? '';
      const hit = id.startsWith('n') ? report.graph?.nodes?.[Number(id.slice(1))] : undefined;
      if (hit && groups.some(g => g.id === hit.id)) {
        toggle(hit.id);
      }
    });
  }
  return { node, done: draw() };
}
