// Tiny DOM helpers. User text only ever goes through text nodes (never innerHTML),
// so player names and chat can't inject markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/** The nodes to put in an element: null, undefined and false are left out; any other
 * value that is not a node becomes a text node. */
function nodes(children) {
  const out = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    out.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return out;
}

function appendChildren(el, children) {
  el.append(...nodes(children));
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    // through the CSSOM: the Content-Security-Policy refuses style attributes
    else if (key === "style") el.style.cssText = value;
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "value" || key === "checked" || key === "selected") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/** h("button", {class: "x", onclick: fn}, "text", child) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  appendChildren(el, children);
  return el;
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  appendChildren(el, children);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Put `children` in `el` instead of what it holds, in one change of the page (a child
 * removed one at a time costs the page a change each). */
export function replace(el, ...children) {
  el.replaceChildren(...nodes(children));
  return el;
}

/** Make `el` hold `children`, in this order, leaving where they are the ones it already
 * holds in that order: a node taken out and put back would lose the focus it holds. */
export function arrange(el, ...children) {
  const wanted = nodes(children);
  const keep = new Set(wanted);
  for (const child of [...el.childNodes]) if (!keep.has(child)) child.remove();
  wanted.forEach((node, i) => {
    const at = el.childNodes[i] ?? null;
    if (at !== node) el.insertBefore(node, at);
  });
  return el;
}

// The widths of elements whose size a ResizeObserver follows (`noteWidth`): drawing one
// then need not make the page lay itself out first, to measure it.
const widths = new WeakMap();

export function noteWidth(el, width) {
  widths.set(el, width);
}

export function widthOf(el) {
  return widths.get(el) ?? el.clientWidth;
}

export { duration as formatTime, date as formatDate, signedNum as signed } from "./i18n.js";

/** A player's name: text only, isolated from the text around it (a Persian name in an
 * English line reads right), and not a word of the page for translating browsers. */
export function nameTag(name, attrs = {}) {
  return h("bdi", { translate: "no", ...attrs }, name);
}
