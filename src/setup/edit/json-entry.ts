/**
 * lore's entry in a JSON or JSONC config file (`mcpServers.lore`, `servers.lore`, …), edited as
 * text with VS Code's own parser, jsonc-parser: the user's other entries, comments, key order and
 * indentation stay as they were. jsonc-parser's formatter is left out on purpose: it re-indents the
 * whole line an insertion lands on, which would reformat the user's neighbouring entry.
 */
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { ConfigError, lineAt } from "./config-error.ts";
import type { EntryFormat } from "./entry-format.ts";

function tree(file: string, text: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  // Nothing but blanks and comments: an empty config, which lore may fill.
  if (!root && errors.every((e) => printParseErrorCode(e.error) === "ValueExpected")) return undefined;
  const first = errors[0];
  if (first) throw new ConfigError(file, `is not valid JSON (${printParseErrorCode(first.error)}); lore left it as it is. Fix it, then run lore setup again`, lineAt(text, first.offset));
  if (root && root.type !== "object") throw new ConfigError(file, "is not a JSON object; lore left it as it is", lineAt(text, root.offset));
  return root;
}

/** The file's own indentation step: that of its first indented line, else two spaces. */
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  if (!m) return "  ";
  return m[1]!.startsWith("\t") ? "\t" : m[1]!.length <= 8 ? m[1]! : "  ";
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** The whitespace before `offset` on its line, when nothing else comes before it there. */
function ownLineIndent(text: string, offset: number): string | null {
  const before = text.slice(lineStart(text, offset), offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/** Objects one key a line, lists of plain values on one line: how people write these configs. */
function render(value: unknown, unit: string, indent: string): string {
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = indent + unit;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${render(v, unit, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function insertProperty(text: string, obj: Node, key: string, value: unknown, unit: string): string {
  const props = obj.children ?? [];
  const last = props[props.length - 1];
  if (last) {
    const indent = ownLineIndent(text, last.offset) ?? lineIndent(text, obj.offset) + unit;
    const at = last.offset + last.length;
    const prop = `\n${indent}${JSON.stringify(key)}: ${render(value, unit, indent)}`;
    // A comment after the last entry, on its line, stays with that entry: the new one goes on the next line.
    const eol = text.indexOf("\n", at) < 0 ? text.length : text.indexOf("\n", at);
    const tail = /^(\s*,)?\s*(\/\/.*|\/\*.*\*\/)\s*$/.exec(text.slice(at, eol));
    if (tail) return `${text.slice(0, at)}${tail[1] ? "" : ","}${text.slice(at, eol).replace(/\s+$/, "")}${prop}${text.slice(eol)}`;
    return `${text.slice(0, at)},${prop}${text.slice(at)}`;
  }
  const outer = lineIndent(text, obj.offset);
  const indent = outer + unit;
  const open = obj.offset + 1;
  const close = obj.offset + obj.length - 1;
  const prop = `\n${indent}${JSON.stringify(key)}: ${render(value, unit, indent)}`;
  if (text.slice(open, close).trim() === "") return `${text.slice(0, open)}${prop}\n${outer}${text.slice(close)}`;
  return `${text.slice(0, open)}${prop}${text.slice(open)}`;
}

/** `value` under `path` (e.g. ["mcpServers", "lore"]) as nested objects. */
function nest(path: string[], value: unknown): unknown {
  return path.reduceRight((v, key) => ({ [key]: v }), value);
}

/** lore's entry at `[...container, name]` of a JSON/JSONC file. */
export function jsonEntry(container: string[], name = "lore"): EntryFormat {
  const describe = (depth: number) => `"${container.slice(0, depth).join(".")}"`;
  /** The container object, or how far the path exists; throws when part of it is not an object. */
  function walk(file: string, text: string, root: Node): { obj: Node; depth: number } {
    let obj = root;
    for (let depth = 0; depth < container.length; depth++) {
      const child = findNodeAtLocation(obj, [container[depth]!]);
      if (!child) return { obj, depth };
      if (child.type !== "object") throw new ConfigError(file, `its ${describe(depth + 1)} is not an object; lore left the file as it is`, lineAt(text, child.offset));
      obj = child;
    }
    return { obj, depth: container.length };
  }

  return {
    read(file, text) {
      const root = tree(file, text);
      if (!root) return undefined;
      const { obj, depth } = walk(file, text, root);
      if (depth < container.length) return undefined;
      const node = findNodeAtLocation(obj, [name]);
      return node ? getNodeValue(node) : undefined;
    },
    set(file, text, value) {
      const root = tree(file, text);
      const unit = indentUnit(text);
      if (!root) {
        const doc = `${render(nest([...container, name], value), unit, "")}\n`;
        return text.trim() ? `${text.trimEnd()}\n${doc}` : doc;
      }
      const { obj, depth } = walk(file, text, root);
      if (depth < container.length) return insertProperty(text, obj, container[depth]!, nest([...container.slice(depth + 1), name], value), unit);
      const node = findNodeAtLocation(obj, [name]);
      if (!node) return insertProperty(text, obj, name, value, unit);
      const indent = ownLineIndent(text, node.parent!.offset) ?? lineIndent(text, node.parent!.offset);
      return text.slice(0, node.offset) + render(value, unit, indent) + text.slice(node.offset + node.length);
    },
    remove(file, text) {
      if (!tree(file, text)) return text;
      let out = applyEdits(text, modify(text, [...container, name], undefined, {}));
      // A container lore's entry leaves empty goes too, innermost first.
      for (let depth = container.length; depth >= 1; depth--) {
        const node = findNodeAtLocation(tree(file, out)!, container.slice(0, depth));
        if (!node || node.type !== "object" || (node.children?.length ?? 0) > 0) break;
        out = applyEdits(out, modify(out, container.slice(0, depth), undefined, {}));
      }
      return out;
    },
  };
}
