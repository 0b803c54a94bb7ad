/**
 * Lay out DOT with Graphviz compiled to WebAssembly, then copy the SVG into the page through
 * an allowlist (elements, attributes, text nodes only). The wasm chunk loads on first use.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

const ELEMENTS: ReadonlySet<string> = new Set([
  'svg', 'g', 'title', 'path', 'polygon', 'polyline', 'ellipse', 'circle', 'rect', 'line',
  'text', 'tspan'
]);

const ATTRIBUTES: ReadonlySet<string> = new Set([
  'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'width', 'height', 'viewBox',
  'points', 'd', 'transform', 'fill', 'stroke', 'stroke-width', 'stroke-dasharray',
  'stroke-opacity', 'fill-opacity', 'font-family', 'font-size', 'font-weight', 'font-style',
  'text-anchor', 'class', 'preserveAspectRatio'
]);

/** Ids that the DOT builder made (`tm-n3`, `tm-e7`); they become `data-tm` attributes. */
const OWN_ID = /^tm-[ne]\d+$/;

type GraphvizLike = { dot(src: string): string };
let graphviz: Promise<GraphvizLike> | null = null;

/** The Graphviz instance, loaded once per page. */
export function loadGraphviz(): Promise<GraphvizLike> {
  if (!graphviz) {
    graphviz = import('@hpcc-js/wasm-graphviz').then(m => m.Graphviz.load());
  }
  return graphviz;
}

/** Copy one parsed node into the live document, keeping only allowlisted parts. */
function copyNode(src: Node, doc: Document): Node | null {
  if (src.nodeType === Node.TEXT_NODE) {
    return doc.createTextNode(src.textContent ?? '');
  }
  if (src.nodeType !== Node.ELEMENT_NODE) {
    return null;
  }
  const el = src as Element;
  const name = el.localName;
  if (name === 'a') {
    // Unwrap links (Graphviz emits them for URL/href attributes); keep their drawing.
    const g = doc.createElementNS(SVG_NS, 'g');
    el.childNodes.forEach(c => {
      const copy = copyNode(c, doc);
      if (copy) {
        g.appendChild(copy);
      }
    });
    return g;
  }
  if (el.namespaceURI !== SVG_NS || !ELEMENTS.has(name)) {
    return null;
  }
  const out = doc.createElementNS(SVG_NS, name);
  for (const attr of Array.from(el.attributes)) {
    if (attr.namespaceURI === null && ATTRIBUTES.has(attr.name) && !/url\s*\(/i.test(attr.value)) {
      out.setAttribute(attr.name, attr.value);
    }
  }
  const id = el.getAttribute('id');
  if (id && OWN_ID.test(id)) {
    out.setAttribute('data-tm', id.slice(3));
  }
  el.childNodes.forEach(c => {
    const copy = copyNode(c, doc);
    if (copy) {
      out.appendChild(copy);
    }
  });
  return out;
}

/** Parse SVG text and return a sanitised copy for `doc`, or null if it is not SVG. */
export function sanitizeSvg(svgText: string, doc: Document = document): SVGSVGElement | null {
  const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = parsed.documentElement;
  if (!root || root.localName !== 'svg' || parsed.getElementsByTagName('parsererror').length) {
    return null;
  }
  return copyNode(root, doc) as SVGSVGElement | null;
}

/** Lay out `dot` and return the sanitised SVG element. Throws when Graphviz rejects the DOT. */
export async function renderDot(dot: string): Promise<SVGSVGElement> {
  const gv = await loadGraphviz();
  const svg = sanitizeSvg(gv.dot(dot));
  if (!svg) {
    throw new Error('Graphviz returned no SVG');
  }
  return svg;
}
