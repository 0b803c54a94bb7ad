/**
 * The loss→weights graph: legend + SVG laid out by Graphviz, optionally pannable and zoomable.
 */
import { trans } from '../i18n';
import { hasGraph, reportToDot, EDGE_STYLE, NODE_STYLE } from '../model/graph';
import { Report } from '../model/types';
import { h } from './dom';
import { renderDot } from './svg';
import { attachPanZoom } from './panzoom';

/** Options of {@link renderGraph}. */
export interface GraphOptions {
  /** Allow panning (drag) and zooming (wheel, buttons). */
  panZoom?: boolean;
  /** Layout direction: left to right (output area) or top to bottom (narrow side panel). */
  rankdir?: 'LR' | 'TB';
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
    node('loss', trans().__('loss')),
    node('variable', trans().__('weight')),
    node('op', trans().__('op')),
    node('host', trans().__('host / NumPy'))
  );
}

/**
 * Draw the report's graph into a new element. Resolves once the layout is done; a layout
 * failure shows a short message instead of the graph.
 */
export function renderGraph(report: Report, options: GraphOptions = {}): { node: HTMLElement; done: Promise<void> } {
  const canvas = h('div', { class: 'jp-tapemagic-graph-canvas' }, h('span', { class: 'jp-tapemagic-muted' }, trans().__('Laying out the graph…')));
  const node = h('div', { class: 'jp-tapemagic-graph' }, legend(), canvas);
  // The structured graph is drawn with the front end's styles (matching the legend); a report
  // with only DOT text is laid out as is. Either way the SVG goes through the allowlist copy.
  let dot = '';
  if (hasGraph(report)) {
    dot = reportToDot(report, { rankdir: options.rankdir }).dot;
  } else if (typeof report.dot === 'string' && report.dot.trim()) {
    dot = report.dot;
  } else {
    canvas.replaceChildren(h('span', { class: 'jp-tapemagic-muted' }, trans().__('This report has no graph.')));
    return { node, done: Promise.resolve() };
  }
  const done = renderDot(dot).then(
    svg => {
      svg.classList.add('jp-tapemagic-svg');
      canvas.replaceChildren(svg);
      if (options.panZoom) {
        node.classList.add('jp-mod-panzoom');
        attachPanZoom(canvas, svg);
      }
    },
    (err: unknown) => {
      canvas.replaceChildren(
        h('span', { class: 'jp-tapemagic-muted' }, trans().__('The graph could not be laid out: %1', String((err as Error)?.message ?? err)))
      );
    }
  );
  return { node, done };
}
