/**
 * How large to draw a Graphviz SVG in the output area: as wide as the box allows, but never so
 * small that its text drops below a legible size (the box scrolls sideways instead).
 *
 * Pure; lengths are CSS pixels, SVG sizes in the SVG's own user units (Graphviz: points).
 */

/** The smallest text size (CSS px) the output-area graph is ever drawn with. */
export const MIN_TEXT_PX = 10;

/** What {@link legibleScale} needs to know about the SVG and its box. */
export interface FitInput {
  /** Width of the SVG's viewBox, in user units. */
  viewWidth: number;
  /** CSS px per user unit at the SVG's own size (Graphviz: 96/72). */
  naturalScale: number;
  /** The smallest `font-size` of its text, in user units (0 or less: no text). */
  minFontSize: number;
  /** Width available in the box, in CSS px. */
  boxWidth: number;
  /** Smallest text size allowed, in CSS px (default {@link MIN_TEXT_PX}). */
  minTextPx?: number;
}

/**
 * CSS px per user unit: fitted to the box, never larger than the SVG's own size, and never
 * smaller than what keeps the smallest text at `minTextPx` (unless the own size is smaller).
 */
export function legibleScale(input: FitInput): number {
  const { viewWidth, naturalScale, minFontSize, boxWidth } = input;
  if (!(viewWidth > 0) || !(naturalScale > 0)) {
    return naturalScale > 0 ? naturalScale : 1;
  }
  const fit = boxWidth > 0 ? boxWidth / viewWidth : naturalScale;
  const legible = minFontSize > 0 ? (input.minTextPx ?? MIN_TEXT_PX) / minFontSize : 0;
  return Math.min(naturalScale, Math.max(fit, legible));
}
