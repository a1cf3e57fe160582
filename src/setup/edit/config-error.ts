/** A config file lore will not edit, with where and why: setup reports it and leaves the file as it was. */

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    /** 1-based line of the problem, when there is one. */
    readonly line?: number,
  ) {
    super(`${file}${line ? `, line ${line}` : ""}: ${reason}`);
  }
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
