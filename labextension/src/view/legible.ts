/**
 * Output-area graph size: fitted to the box, but never with text below a legible size. A graph
 * too wide for that scrolls sideways inside its box (`overflow: auto`) instead of shrinking,
 * opened on its cuts, with a hint that points the way the rest lies.
 */
import { trans } from '../i18n';
import { legibleScale } from '../model/fit';
import { h } from './dom';
import { fitLabels, unionRect } from './labels';

/** CSS px of an SVG length attribute (Graphviz writes `123pt`); NaN when unknown. */
function lengthPx(value: string | null): number {
  const m = /^\s*([\d.]+)\s*(pt|px)?\s*$/.exec(value ?? '');
  if (!m) {
    return NaN;
  }
  return parseFloat(m[1]) * (m[2] === 'pt' ? 96 / 72 : 1);
}

/** The smallest `font-size` of the SVG's text, in user units (0: no text). */
export function minFontSize(svg: SVGSVGElement): number {
  let min = Infinity;
  svg.querySelectorAll('text').forEach(t => {
    const size = parseFloat(t.getAttribute('font-size') ?? '14');
    if (size > 0 && size < min) {
      min = size;
    }
  });
  return Number.isFinite(min) ? min : 0;
}

/** What a graph opens on: every cut findings name with its weights, or the first one's alone. */
export interface Focus {
  all: Element[];
  first: Element[];
}

/**
 * The part of the focus to show in a view of `width` × `height`: all of it when it fits, else
 * the first cut with the weights behind it, else that cut alone (null: nothing has a size).
 */
export function pickFocus(focus: Focus, width: number, height: number): { left: number; top: number; right: number; bottom: number } | null {
  const parts = [focus.all, focus.first, focus.first.filter(el => el.getAttribute('data-tm')?.startsWith('e'))];
  let last = null;
  for (const part of parts) {
    const r = unionRect(part);
    if (r && r.right - r.left <= width && r.bottom - r.top <= height) {
      return r;
    }
    last = r ?? last;
  }
  return last;
}

/**
 * Scroll `box` so that the focus is in view: all of it when it fits the box, else the first
 * finding's cut and weights (centred when they fit, else from their start); false while the
 * box has no size yet (not in the page).
 */
export function revealIn(box: HTMLElement, focus: Focus): boolean {
  if (!box.clientWidth) {
    return false;
  }
  const b = box.getBoundingClientRect();
  const r = pickFocus(focus, box.clientWidth, box.clientHeight);
  if (!r) {
    return !focus.all.length;
  }
  const axis = (start: number, end: number, view: number, size: number): number => {
    if (start >= view && end <= view + size) {
      return 0;
    }
    return end - start <= size ? (start + end) / 2 - (view + size / 2) : start - view - 8;
  };
  box.scrollLeft += axis(r.left, r.right, b.left, box.clientWidth);
  box.scrollTop += axis(r.top, r.bottom, b.top, box.clientHeight);
  return true;
}

/**
 * Which way the rest of a scrolled graph lies: a hint that points there (both ways, one, or
 * none when all of it is in view), kept up to date as the box scrolls.
 */
function scrollHint(canvas: HTMLElement): { node: HTMLElement; update: () => void } {
  const node = h('div', { class: 'jp-tapemagic-scroll-hint' });
  const update = (): void => {
    const left = canvas.scrollLeft > 8;
    const right = canvas.scrollLeft + canvas.clientWidth < canvas.scrollWidth - 1;
    const more = left && right ? 'both' : left ? 'left' : right ? 'right' : '';
    node.setAttribute('data-more', more);
    node.textContent =
      more === 'both'
        ? trans().__('← Wide graph: more on both sides →')
        : more === 'left'
          ? trans().__('← Wide graph: more to the left')
          : more === 'right'
            ? trans().__('Wide graph: more to the right →')
            : '';
    if (!more) {
      node.remove();
    } else if (!node.isConnected) {
      canvas.prepend(node);
    }
  };
  canvas.addEventListener('scroll', update, { passive: true });
  return { node, update };
}

/**
 * Size `svg` inside `canvas` (its scrolling box) by {@link legibleScale}, now and whenever the
 * box's width changes. The first time it has a size, labels are fitted to their boxes and the
 * box scrolls to show `focus` (the cuts and the weights they cut), so a wide graph does not
 * open with them off to one side; the hint says which way the rest is.
 */
export function sizeLegibly(canvas: HTMLElement, svg: SVGSVGElement, focus: Focus | null = null): void {
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
  let fitted = false;
  const hint = scrollHint(canvas);
  const apply = (): void => {
    const style = getComputedStyle(canvas);
    const box = canvas.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0');
    if (box <= 0 || (box === lastWidth && !focus)) {
      return;
    }
    lastWidth = box;
    fitted = fitted || fitLabels(svg);
    const k = legibleScale({ viewWidth, naturalScale, minFontSize: minFont, boxWidth: box });
    svg.classList.add('jp-mod-legible');
    svg.style.width = `${viewWidth * k}px`;
    svg.style.height = `${viewHeight * k}px`;
    if (focus && revealIn(canvas, focus)) {
      focus = null; // once: after that the user scrolls
    }
    hint.update();
  };
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
  // A report drawn off screen (a cell the notebook has not rendered yet) cannot be measured:
  // look again when it comes into view, until the focus has been shown once.
  const seen = new IntersectionObserver(entries => {
    if (!canvas.isConnected && lastWidth >= 0) {
      seen.disconnect();
    } else if (entries.some(e => e.isIntersecting)) {
      requestAnimationFrame(apply);
      if (!focus) {
        seen.disconnect();
      }
    }
  });
  seen.observe(canvas);
}
