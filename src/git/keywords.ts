/** Language keywords: words every program says, which name nothing a change is about (a file called export.js is not what `export` speaks of). */

// Lowercase, three letters or more (diff-words.ts reads no shorter word). Reserved words only: a
// contextual one that is also an API's name (get, set, use, type, end) may be what a change is about.
export const KEYWORDS: ReadonlySet<string> = new Set(
  (
    // JavaScript and TypeScript.
    "abstract any arguments async await bigint boolean break case catch class const constructor continue debugger default delete else enum export extends false " +
    "finally for from function implements import instanceof interface keyof let namespace never new null private protected public readonly return satisfies " +
    "static super switch this throw true try typeof undefined unknown var void while with yield " +
    // Python, Go, Rust, Ruby, C and its kin, shell.
    "and def del elif except lambda none nonlocal not pass raise self chan defer fallthrough func goto struct crate dyn impl mut pub trait unsafe where " +
    "elsif unless char int long double float unsigned signed sizeof typedef extern esac"
  ).split(" "),
);
