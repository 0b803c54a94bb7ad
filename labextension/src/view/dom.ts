/**
 * A tiny DOM builder. Children are nodes or strings; strings always become text nodes, so
 * report data can never be parsed as HTML.
 */
import { codeSegments } from '../model/text';

/** A child of {@link h}: a node, text (always a text node), or nothing. */
export type Child = Node | string | null | undefined | false;

/** Create an element with CSS classes and attributes, appending the children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) {
    el.className = props.class;
  }
  for (const [k, v] of Object.entries(props.attrs ?? {})) {
    el.setAttribute(k, v);
  }
  for (const c of children) {
    if (c !== null && c !== undefined && c !== false) {
      el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
  }
  return el;
}

/** Create a `<button type="button">` with a text label and a click handler. */
export function button(cls: string, label: string, onClick: (ev: MouseEvent) => void): HTMLButtonElement {
  const b = h('button', { class: `jp-tapemagic-button ${cls}`, attrs: { type: 'button' } }, label);
  b.addEventListener('click', ev => {
    ev.stopPropagation();
    onClick(ev);
  });
  return b;
}

/**
 * Text with `backtick` spans shown as inline code (the catalog's and messages' only markup).
 * Everything stays text nodes; code spans are text inside `<code>`.
 */
export function richText(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const seg of codeSegments(text)) {
    frag.appendChild(seg.code ? h('code', { class: 'jp-tapemagic-inline-code' }, seg.text) : document.createTextNode(seg.text));
  }
  return frag;
}
