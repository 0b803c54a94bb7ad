/**
 * Pan (drag) and zoom (wheel, +/−/reset buttons) for a graph, by CSS transform.
 */
import { trans } from '../i18n';
import { button, h } from './dom';
import { MIN_TEXT_PX } from '../model/fit';
import { fitLabels } from './labels';
import { Focus, minFontSize, pickFocus } from './legible';

/**
 * Make `svg` pannable and zoomable inside `viewport`, fitted at first; returns a re-fit function.
 * When the first fit leaves `focus` (the cuts and the weights they cut) outside the viewport,
 * the graph is panned to show it.
 */
export function attachPanZoom(viewport: HTMLElement, svg: SVGSVGElement, focus: Focus | null = null): () => void {
  let scale = 1;
  let x = 0;
  let y = 0;
  const apply = (): void => {
    svg.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
  };
  const zoom = (factor: number, cx = viewport.clientWidth / 2, cy = viewport.clientHeight / 2): void => {
    const next = Math.min(8, Math.max(0.2, scale * factor));
    x = cx - ((cx - x) * next) / scale;
    y = cy - ((cy - y) * next) / scale;
    scale = next;
    apply();
  };
  /**
   * Scale the graph down (never up) to the viewport's width, top-left aligned, but never so far
   * that its smallest text drops below {@link MIN_TEXT_PX} (a narrow side panel pans instead
   * of showing an unreadable thumbnail); pan for the rest.
   */
  const reset = (): boolean => {
    svg.style.transform = '';
    const box = svg.getBoundingClientRect();
    const w = viewport.clientWidth - 12;
    if (!box.width || w <= 0) {
      return false;
    }
    fitLabels(svg);
    const units = svg.viewBox?.baseVal?.width || box.width;
    const font = minFontSize(svg) * (box.width / units);
    const legible = font > 0 ? MIN_TEXT_PX / font : 0;
    scale = Math.min(1, Math.max(w / box.width, legible));
    x = 6;
    y = 6;
    apply();
    return true;
  };
  svg.style.transformOrigin = '0 0';
  viewport.addEventListener(
    'wheel',
    ev => {
      ev.preventDefault();
      const r = viewport.getBoundingClientRect();
      zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
    },
    { passive: false }
  );
  let drag: { px: number; py: number; sx: number; sy: number; moved: boolean } | null = null;
  viewport.addEventListener('pointerdown', ev => {
    drag = { px: ev.clientX - x, py: ev.clientY - y, sx: ev.clientX, sy: ev.clientY, moved: false };
  });
  viewport.addEventListener('pointermove', ev => {
    if (drag && !drag.moved && Math.hypot(ev.clientX - drag.sx, ev.clientY - drag.sy) > 3) {
      // Capture only once it is a drag, so a plain click still reaches the node or edge under it.
      drag.moved = true;
      viewport.setPointerCapture(ev.pointerId);
      viewport.classList.add('jp-mod-dragging');
    }
    if (drag?.moved) {
      x = ev.clientX - drag.px;
      y = ev.clientY - drag.py;
      apply();
    }
  });
  const end = (): void => {
    drag = null;
    viewport.classList.remove('jp-mod-dragging');
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);
  const tools = h(
    'div',
    { class: 'jp-tapemagic-zoom' },
    button('jp-tapemagic-zoom-in', '+', () => zoom(1.25)),
    button('jp-tapemagic-zoom-out', '−', () => zoom(1 / 1.25)),
    button('jp-tapemagic-zoom-reset', '⟲', () => void (reset() && centre()))
  );
  const titles = [trans().__('Zoom in'), trans().__('Zoom out'), trans().__('Fit to width, back to the cut')];
  Array.from(tools.children).forEach((b, i) => {
    b.setAttribute('title', titles[i]);
    b.setAttribute('aria-label', titles[i]);
  });
  tools.addEventListener('pointerdown', ev => ev.stopPropagation());
  viewport.appendChild(tools);
  /** Pan so that the focus (the cuts and their weights, else the first cut's) is in view. */
  const centre = (): void => {
    if (!focus) {
      return;
    }
    const v = viewport.getBoundingClientRect();
    const r = pickFocus(focus, v.width, v.height);
    if (!r) {
      return;
    }
    const axis = (start: number, end: number, view: number, size: number): number => {
      if (start >= view && end <= view + size) {
        return 0;
      }
      return end - start <= size ? view + size / 2 - (start + end) / 2 : view + 8 - start;
    };
    const dx = axis(r.left, r.right, v.left, v.width);
    const dy = axis(r.top, r.bottom, v.top, v.height);
    if (dx || dy) {
      x += dx;
      y += dy;
      apply();
    }
  };
  // Fit once the viewport has a size (the panel may be hidden when the graph is drawn).
  if (reset()) {
    centre();
  } else {
    const observer = new ResizeObserver(() => {
      if (reset()) {
        observer.disconnect();
        centre();
      }
    });
    observer.observe(viewport);
  }
  return () => void reset();
}
