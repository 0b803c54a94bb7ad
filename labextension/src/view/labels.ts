/**
 * Graph node labels that fit their boxes, with the full name on hover.
 *
 * Graphviz sizes a box by its own font metrics, and the browser draws the text in whatever
 * font it has, often wider: a long label would run out of its box. Once the SVG is in the page
 * (it can be measured), each line wider than its shape is cut short with an ellipsis; the
 * node's `<title>` (the hover tooltip) holds its whole label and place. Text only, never markup.
 */
import { nodePlace } from '../model/report';
import { Report } from '../model/types';

/** Room left between a label and its shape's edge, in SVG user units. */
const INSET = 4;

/** Put each node's full label and place in its `<title>` (Graphviz writes its DOT id there). */
export function nameNodes(svg: SVGSVGElement, report: Report): void {
  const nodes = report.graph?.nodes ?? [];
  svg.querySelectorAll('g[data-tm^="n"]').forEach(g => {
    const n = nodes[Number(g.getAttribute('data-tm')!.slice(1))];
    if (!n) {
      return;
    }
    let title = g.querySelector(':scope > title');
    if (!title) {
      title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      g.prepend(title);
    }
    title.textContent = [n.label, nodePlace(report, n)].filter(Boolean).join(' · ');
  });
}

/** The width available to a text line inside `shape` at the line's height. */
function room(shape: SVGGraphicsElement, y: number): number {
  const box = shape.getBBox();
  if (shape.localName === 'ellipse') {
    const ry = box.height / 2;
    const dy = Math.min(Math.abs(y - (box.y + ry)), ry);
    return box.width * Math.sqrt(1 - (dy / ry) ** 2) - 2 * INSET;
  }
  return box.width - 2 * INSET;
}

/**
 * Shorten, with an ellipsis, every node text line wider than its shape. False while the SVG
 * cannot be measured yet (not in the page, or hidden); call again once it can.
 */
export function fitLabels(svg: SVGSVGElement): boolean {
  let measured = false;
  svg.querySelectorAll('g[data-tm^="n"]').forEach(g => {
    const shape = g.querySelector<SVGGraphicsElement>('polygon, ellipse, path, rect');
    if (!shape) {
      return;
    }
    g.querySelectorAll<SVGTextContentElement>('text').forEach(t => {
      const full = t.textContent ?? '';
      const width = t.getComputedTextLength();
      if (!width) {
        return;
      }
      measured = true;
      const y = parseFloat(t.getAttribute('y') ?? '0');
      const max = room(shape, y - 3);
      if (width <= max || max <= 0) {
        return;
      }
      // the longest prefix that fits with its ellipsis (binary search on characters)
      let lo = 0;
      let hi = full.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        t.textContent = full.slice(0, mid).trimEnd() + '…';
        if (t.getComputedTextLength() <= max) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      t.textContent = full.slice(0, lo).trimEnd() + '…';
    });
  });
  return measured;
}

/** The smallest client rectangle holding every element of `els` (null: none has a size). */
export function unionRect(els: readonly Element[]): { left: number; top: number; right: number; bottom: number } | null {
  let out: { left: number; top: number; right: number; bottom: number } | null = null;
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (!(r.width || r.height)) {
      continue;
    }
    out = out
      ? { left: Math.min(out.left, r.left), top: Math.min(out.top, r.top), right: Math.max(out.right, r.right), bottom: Math.max(out.bottom, r.bottom) }
      : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  return out;
}
