/**
 * Output-area graph size: fitted to the box, but never with text below a legible size. A graph
 * too wide for that scrolls sideways inside its box (`overflow: auto`) instead of shrinking.
 */
import { trans } from '../i18n';
import { legibleScale } from '../model/fit';
import { h } from './dom';

/** CSS px of an SVG length attribute (Graphviz writes `123pt`); NaN when unknown. */
function lengthPx(value: string | null): number {
  const m = /^\s*([\d.]+)\s*(pt|px)?\s*$/.exec(value ?? '');
  if (!m) {
    return NaN;
  }
  return parseFloat(m[1]) * (m[2] === 'pt' ? 96 / 72 : 1);
}

/** The smallest `font-size` of the SVG's text, in user units (0: no text). */
function minFontSize(svg: SVGSVGElement): number {
  let min = Infinity;
  svg.querySelectorAll('text').forEach(t => {
    const size = parseFloat(t.getAttribute('font-size') ?? '14');
    if (size > 0 && size < min) {
      min = size;
    }
  });
  return Number.isFinite(min) ? min : 0;
}

/**
 * Scroll `box` so that `target` (inside it) sits in its middle, along each axis where it is not
 * fully visible already; false while either has no size yet (not in the page).
 */
export function centreIn(box: HTMLElement, target: Element): boolean {
  const r = target.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (!(r.width || r.height) || !box.clientWidth) {
    return false;
  }
  if (r.left < b.left || r.right > b.left + box.clientWidth) {
    box.scrollLeft += r.left + r.width / 2 - (b.left + box.clientWidth / 2);
  }
  if (r.top < b.top || r.bottom > b.top + box.clientHeight) {
    box.scrollTop += r.top + r.height / 2 - (b.top + box.clientHeight / 2);
  }
  return true;
}

/**
 * Size `svg` inside `canvas` (its scrolling box) by {@link legibleScale}, now and whenever the
 * box's width changes. The first time it has a size, the box scrolls to centre `focus` (the
 * cut), so a wide graph does not open with the scissors off to the right.
 */
export function sizeLegibly(canvas: HTMLElement, svg: SVGSVGElement, focus: Element | null = null): void {
  const vb = svg.viewBox?.baseVal;
  const viewWidth = vb && vb.width > 0 ? vb.width : lengthPx(svg.getAttribute('width'));
  const viewHeight = vb && vb.height > 0 ? vb.height : lengthPx(svg.getAttribute('height'));
  const naturalPx = lengthPx(svg.getAttribute('width'));
  if (!(viewWidth > 0) || !(viewHeight > 0)) {
    return;
  }
  const naturalScale = naturalPx > 0 ? naturalPx / viewWidth : 1;
  const minFont = minFontSize(svg);
  let lastWidth = -1;
  const apply = (): void => {
    const style = getComputedStyle(canvas);
    const box = canvas.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0');
    if (box <= 0 || box === lastWidth) {
      return;
    }
    lastWidth = box;
    const k = legibleScale({ viewWidth, naturalScale, minFontSize: minFont, boxWidth: box });
    svg.classList.add('jp-mod-legible');
    svg.style.width = `${viewWidth * k}px`;
    svg.style.height = `${viewHeight * k}px`;
    const wide = viewWidth * k > box + 1;
    if (wide && !hint.isConnected) {
      canvas.prepend(hint);
    } else if (!wide) {
      hint.remove();
    }
    if (focus && centreIn(canvas, focus)) {
      focus = null; // once: after that the user scrolls
    }
  };
  // Said once, above the graph (sticky, so it stays put while the box scrolls).
  const hint = h('div', { class: 'jp-tapemagic-scroll-hint' }, trans().__('Wide graph: scroll sideways to see all of it →'));
  apply();
  const observer = new ResizeObserver(() => {
    if (!canvas.isConnected && lastWidth >= 0) {
      observer.disconnect();
      return;
    }
    // Next frame: resizing the SVG inside the observer's callback would re-enter it.
    requestAnimationFrame(apply);
  });
  observer.observe(canvas);
}
