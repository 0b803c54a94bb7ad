/**
 * The only markup report and catalog strings carry: `backtick` spans are inline code.
 *
 * Pure. The view turns the segments into text nodes (code spans inside `<code>`), never HTML.
 */

/** A piece of text: plain, or an inline code span (its backticks removed). */
export interface TextSegment {
  text: string;
  code: boolean;
}

/**
 * Split `text` at backticks into plain and code segments. An unmatched last backtick stays
 * literal, so "it's `x" does not turn the rest of the text into code.
 */
export function codeSegments(text: string): TextSegment[] {
  const parts = String(text).split('`');
  if (parts.length % 2 === 0) {
    // Odd number of backticks: glue the last, unmatched one back on as plain text.
    const tail = parts.pop()!;
    parts[parts.length - 1] += '`' + tail;
  }
  const out: TextSegment[] = [];
  parts.forEach((part, i) => {
    if (part) {
      out.push({ text: part, code: i % 2 === 1 });
    }
  });
  return out;
}

/** The text with code spans' backticks removed (labels that cannot hold markup, ARIA). */
export function plainText(text: string): string {
  return codeSegments(text)
    .map(s => s.text)
    .join('');
}
