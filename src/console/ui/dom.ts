// Building the page: elements are made with h(), text always goes in as text (never as HTML), so
// nothing a customer typed (a name, a note) can become markup.

export type Child = Node | string | number | null | undefined | false;

type Listener = (event: Event) => void;
export type Props = Record<string, string | number | boolean | Listener | null | undefined>;

/** Properties rather than attributes: they reflect the element's live state. */
const PROPERTIES = new Set(['checked', 'disabled', 'selected', 'hidden', 'value', 'open', 'indeterminate']);

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setProps(element, props);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}

function setProps(element: HTMLElement, props: Props): void {
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = String(value);
    else if (PROPERTIES.has(name)) Reflect.set(element, name, value);
    else if (value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
