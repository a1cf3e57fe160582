/// <reference lib="dom" />
/** Small DOM helpers for the report page: elements, SVG elements, number formats. */
import { noun } from "../../plural.ts";

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

function fill<E extends Element>(e: E, attrs: Attrs, children: Child[]): E {
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : String(v));
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  return fill(document.createElement(tag), attrs, children);
}

export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}

export const fmt = (n: number): string => n.toLocaleString("en-US");
export const pct = (share: number): string => `${Math.round(share * 100)} %`;
/** A count and its noun, the number formatted for people: "1 line", "2,480 lines". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${fmt(n)} ${noun(n, one, many)}`;
export const base = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** The heat colour of `v` in 0..1: pale yellow to deep red, as a CSS colour (lightness also falls, so it reads in grey too). */
export function heat(v: number): string {
  const t = Math.max(0, Math.min(1, v));
  const hue = 55 - 55 * t;
  const light = 92 - 52 * t;
  return `hsl(${hue.toFixed(1)} 85% ${light.toFixed(1)}%)`;
}
