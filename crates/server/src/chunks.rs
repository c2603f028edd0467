//! The web client's ES modules joined into chunks, so a first visit costs one round of requests. Over HTTP/1.1 a
//! browser asks six files at a time from one server, and on a slow phone's connection every further six cost a
//! round trip; a table link's first visit needs eleven modules. Joined, it asks for three: the root chunk
//! (`js/app.js` and every module it imports, followed through), the page's chunk and the language's chunk (each
//! module loaded through `import()`, with what it imports that the root chunk lacks).
//!
//! The modules stay plain ES modules on disk (the unit tests and a server without chunks load them as they are).
//! In a chunk each module becomes a function registered under its path; a small loader at the top of the root
//! chunk runs each module once, the first time it is imported, and fetches the chunk of a module that is not there
//! yet (the page runs its page's and language's chunks before the root chunk, so on a first visit none is
//! fetched later). The rewriting reads the client's own style, one statement per line at the start of the line:
//! `import { a, b as c } from './x.js';`, `import * as d from '../y.js';`, `export function|async function|class|
//! const name`, `export default {`; `import(` and `import.meta.url` anywhere. Any other import or export line is
//! an error naming the line, and modules that import each other are refused.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// The module every page starts from; its chunk carries the loader.
pub const ROOT: &str = "js/app.js";

/// Where chunks are served, under the bundle's prefix: the chunk of `js/pages/table.js` is
/// `/a/<hash>/c/js/pages/table.js`.
pub const DIR: &str = "c/";

/// Why a chunk could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkError {
    /// A module that is asked for or imported is not in the bundle.
    Missing {
        /// The module's path (`js/dom.js`).
        module: String,
        /// The chunk's module that asked for it (the module itself when the chunk was asked for).
        from: String,
    },
    /// A line the rewriting does not read (an import over several lines, `export let`, `export { }`, an import
    /// or export inside a block).
    Unsupported {
        /// The module's path.
        module: String,
        /// The line's number, from 1.
        line: usize,
        /// The line, trimmed.
        text: String,
    },
    /// Modules that import each other, directly or through others.
    Circle {
        /// The first module found twice on one path of imports.
        module: String,
    },
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::Missing { module, from } => {
                write!(f, "{from} imports {module}, which is not in the bundle")
            }
            ChunkError::Unsupported { module, line, text } => {
                write!(f, "{module}:{line}: cannot join this line into a chunk: {text}")
            }
            ChunkError::Circle { module } => write!(f, "{module} is part of an import circle"),
        }
    }
}

impl std::error::Error for ChunkError {}

/// The registry, at the top of every chunk: the chunks of the address's page and language run before the root
/// chunk (the page lists them first), so whichever runs first makes it. `define` keeps the first function given
/// for a path.
const REGISTRY: &str = "const parlorModules = globalThis.parlorModules || (() => {
  const defs = new Map();
  return (globalThis.parlorModules = { defs, define: (name, def) => { if (!defs.has(name)) defs.set(name, def); } });
})();
";

/// The loader, in the root chunk after the registry. `need` runs a module once and gives its exports (read through
/// getters, so they are live as in an ES module); a module that is not defined yet is fetched as its chunk
/// (`import()` of `c/<path>`).
const LOADER: &str = r#"(() => {
  const base = new URL('../../', import.meta.url).href;
  const defs = parlorModules.defs;
  const made = new Map();
  const resolve = (from, spec) => new URL(spec, base + from).href.slice(base.length);
  const need = (name) => {
    if (made.has(name)) return made.get(name);
    const def = defs.get(name);
    if (!def) throw new Error(name + ' is not loaded');
    const exports = {};
    made.set(name, exports);
    const exported = (getters) => {
      for (const [key, get] of Object.entries(getters)) Object.defineProperty(exports, key, { get, enumerable: true });
    };
    def((spec) => need(resolve(name, spec)), exported, (spec) => load(resolve(name, spec)), base + name);
    return exports;
  };
  const load = async (name) => {
    if (!defs.has(name)) await import(base + 'c/' + name);
    return need(name);
  };
  parlorModules.need = need;
})();
"#;

/// The chunk of `entry`: for the root, the loader, every module it imports (followed through) and the start of
/// the root; for another module, it and what it imports that the root chunk does not hold. `read` gives a file of
/// the bundle by its path (`js/dom.js`).
pub fn chunk<'a>(entry: &str, read: impl Fn(&str) -> Option<Cow<'a, [u8]>>) -> Result<String, ChunkError> {
    let root = in_order(ROOT, &read)?;
    let mut text = REGISTRY.to_owned();
    let modules = if entry == ROOT {
        text.push_str(LOADER);
        root
    } else {
        let held: HashSet<&String> = root.iter().map(|(name, _)| name).collect();
        in_order(entry, &read)?
            .into_iter()
            .filter(|(name, _)| !held.contains(name))
            .collect()
    };
    for (module, source) in &modules {
        let shorter = without_comment_lines(source);
        text.push_str(&wrap(module, shorter.as_deref().unwrap_or(source))?);
    }
    if entry == ROOT {
        text.push_str(&format!("parlorModules.need({ROOT:?});\n"));
    }
    Ok(text)
}

/// `entry` and the modules it imports statically, followed through, each after the modules it imports, with
/// their sources.
fn in_order<'a>(
    entry: &str,
    read: &impl Fn(&str) -> Option<Cow<'a, [u8]>>,
) -> Result<Vec<(String, String)>, ChunkError> {
    fn visit<'a>(
        module: &str,
        from: &str,
        read: &impl Fn(&str) -> Option<Cow<'a, [u8]>>,
        open: &mut Vec<String>,
        order: &mut Vec<(String, String)>,
    ) -> Result<(), ChunkError> {
        if order.iter().any(|(m, _)| m == module) {
            return Ok(());
        }
        if open.iter().any(|m| m == module) {
            return Err(ChunkError::Circle {
                module: module.to_owned(),
            });
        }
        let source = read(module).ok_or_else(|| ChunkError::Missing {
            module: module.to_owned(),
            from: from.to_owned(),
        })?;
        let source = String::from_utf8_lossy(&source).into_owned();
        open.push(module.to_owned());
        let targets: Vec<String> = static_imports(&source)
            .filter_map(|t| resolve(module, t))
            .collect();
        for target in targets {
            visit(&target, module, read, open, order)?;
        }
        open.pop();
        order.push((module.to_owned(), source));
        Ok(())
    }
    let (mut open, mut order) = (Vec::new(), Vec::new());
    visit(entry, entry, read, &mut open, &mut order)?;
    Ok(order)
}

/// One module as a function registered under its path, its imports and exports rewritten for the loader.
fn wrap(module: &str, source: &str) -> Result<String, ChunkError> {
    let unsupported = |line: usize, text: &str| ChunkError::Unsupported {
        module: module.to_owned(),
        line: line + 1,
        text: text.trim().to_owned(),
    };
    let mut exported: Vec<(String, String)> = Vec::new();
    let mut body = String::with_capacity(source.len() + 256);
    for (number, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("import ") || trimmed.starts_with("export ") {
            if trimmed.len() != line.len() {
                return Err(unsupported(number, line));
            }
            if let Some(rest) = line.strip_prefix("import ") {
                body.push_str(&rewrite_import(rest).ok_or_else(|| unsupported(number, line))?);
            } else {
                let (name, text) =
                    rewrite_export(&line["export ".len()..]).ok_or_else(|| unsupported(number, line))?;
                exported.push((
                    if name == "$default" {
                        "default".to_owned()
                    } else {
                        name.clone()
                    },
                    name,
                ));
                body.push_str(&text);
            }
        } else if line.contains("import.meta") && !line.contains("import.meta.url") {
            return Err(unsupported(number, line));
        } else {
            body.push_str(
                &line
                    .replace("import.meta.url", "$url")
                    .replace("import(", "$load("),
            );
        }
        body.push('\n');
    }
    let getters: Vec<String> = exported
        .iter()
        .map(|(key, name)| format!("{key}: () => {name}"))
        .collect();
    Ok(format!(
        "parlorModules.define({module:?}, function ($import, $export, $load, $url) {{\n$export({{ {} }});\n{body}}});\n",
        getters.join(", ")
    ))
}

/// `source` with every line that holds only a comment left empty (so line numbers stay), or `None` when the
/// text does not scan to its end as code (a form the scanner misreads): then the module goes in as written. A
/// first visit's modules are about a third comments, which a phone would otherwise download.
///
/// The scanner knows strings, template literals (with `${}` inside), comments and regular expression literals (a
/// `/` where a value cannot end: after an operator, an opening bracket, a comma or a keyword such as `return`).
pub fn without_comment_lines(source: &str) -> Option<String> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Mode {
        Code,
        LineComment,
        BlockComment,
        Quoted(char),
        Template,
        Regex { class: bool },
    }
    const AFTER_KEYWORD: [&str; 14] = [
        "return",
        "typeof",
        "case",
        "do",
        "else",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "instanceof",
        "yield",
        "await",
    ];
    let mut mode = Mode::Code;
    // Open `${` of template literals: the depth of braces inside each.
    let mut holes: Vec<usize> = Vec::new();
    // The last character of code that was not blank, the word it ended (for `return /x/`), and whether the
    // character before this one belonged to that word.
    let (mut last, mut word, mut in_word) = (None::<char>, String::new(), false);
    let mut out = String::with_capacity(source.len());
    for line in source.split_inclusive('\n') {
        let in_text = mode == Mode::Template;
        let (mut code, mut comment) = (false, false);
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match mode {
                Mode::LineComment => {
                    if c == '\n' {
                        mode = Mode::Code;
                    } else {
                        comment = true;
                    }
                }
                Mode::BlockComment => {
                    comment = true;
                    if c == '*' && chars.peek() == Some(&'/') {
                        chars.next();
                        mode = Mode::Code;
                    }
                }
                Mode::Quoted(quote) => {
                    code = true;
                    if c == '\\' {
                        chars.next();
                    } else if c == quote {
                        mode = Mode::Code;
                        (last, word, in_word) = (Some('0'), String::new(), false);
                    } else if c == '\n' {
                        return None;
                    }
                }
                Mode::Template => {
                    code = true;
                    if c == '\\' {
                        chars.next();
                    } else if c == '`' {
                        mode = Mode::Code;
                        (last, word, in_word) = (Some('0'), String::new(), false);
                    } else if c == '$' && chars.peek() == Some(&'{') {
                        chars.next();
                        holes.push(0);
                        mode = Mode::Code;
                        (last, word, in_word) = (Some('{'), String::new(), false);
                    }
                }
                Mode::Regex { class } => {
                    code = true;
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '\n' => return None,
                        '[' => mode = Mode::Regex { class: true },
                        ']' => mode = Mode::Regex { class: false },
                        '/' if !class => {
                            mode = Mode::Code;
                            (last, word, in_word) = (Some('0'), String::new(), false);
                        }
                        _ => {}
                    }
                }
                Mode::Code => {
                    if c.is_whitespace() {
                        in_word = false;
                        continue;
                    }
                    if c == '/' && chars.peek() == Some(&'/') {
                        chars.next();
                        mode = Mode::LineComment;
                        comment = true;
                        continue;
                    }
                    if c == '/' && chars.peek() == Some(&'*') {
                        chars.next();
                        mode = Mode::BlockComment;
                        comment = true;
                        continue;
                    }
                    code = true;
                    let ends_value = match last {
                        None => false,
                        Some(l) if l.is_alphanumeric() || l == '_' || l == '$' => {
                            !AFTER_KEYWORD.contains(&word.as_str())
                        }
                        Some(l) => matches!(l, ')' | ']'),
                    };
                    match c {
                        '\'' | '"' => mode = Mode::Quoted(c),
                        '`' => mode = Mode::Template,
                        '/' if !ends_value => mode = Mode::Regex { class: false },
                        '{' => {
                            if let Some(depth) = holes.last_mut() {
                                *depth += 1;
                            }
                        }
                        '}' => match holes.last_mut() {
                            Some(0) => {
                                holes.pop();
                                mode = Mode::Template;
                            }
                            Some(depth) => *depth -= 1,
                            None => {}
                        },
                        _ => {}
                    }
                    if c.is_alphanumeric() || c == '_' || c == '$' {
                        if !in_word {
                            word.clear();
                        }
                        word.push(c);
                        in_word = true;
                    } else {
                        word.clear();
                        in_word = false;
                    }
                    last = Some(c);
                }
            }
        }
        if comment && !code && !in_text {
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    (mode == Mode::Code || mode == Mode::LineComment)
        .then_some(out)
        .filter(|_| holes.is_empty())
}

/// `{ a, b as c } from './x.js';` as `const { a, b: c } = $import('./x.js');`, `* as d from './y.js';` as
/// `const d = $import('./y.js');`; `None` for any other form.
fn rewrite_import(rest: &str) -> Option<String> {
    let (names, from) = rest.rsplit_once(" from ")?;
    let spec = quoted(from.trim().trim_end_matches(';').trim_end())?;
    let names = names.trim();
    let binding = if let Some(alias) = names.strip_prefix("* as ") {
        identifier(alias.trim())?.to_owned()
    } else {
        let list = names.strip_prefix('{')?.strip_suffix('}')?;
        let mut parts = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item.split_once(" as ") {
                Some((name, alias)) => parts.push(format!(
                    "{}: {}",
                    identifier(name.trim())?,
                    identifier(alias.trim())?
                )),
                None => parts.push(identifier(item)?.to_owned()),
            }
        }
        format!("{{ {} }}", parts.join(", "))
    };
    Some(format!("const {binding} = $import('{spec}');"))
}

/// `function f(`, `async function f(`, `class C`, `const X =` (after `export `) without the `export`, with the
/// name exported; `default ` as `const $default = `.
fn rewrite_export(rest: &str) -> Option<(String, String)> {
    if let Some(value) = rest.strip_prefix("default ") {
        return Some(("$default".to_owned(), format!("const $default = {value}")));
    }
    let declared = ["async function ", "function ", "class ", "const "]
        .iter()
        .find_map(|keyword| rest.strip_prefix(keyword))?;
    let end = declared
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(declared.len());
    let name = identifier(&declared[..end])?;
    Some((name.to_owned(), rest.to_owned()))
}

/// `name` when it is a plain identifier.
fn identifier(name: &str) -> Option<&str> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let ok = (first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    ok.then_some(name)
}

/// The text between matching quotes (`'./x.js'` or `"./x.js"`), with nothing after.
fn quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let inner = text[1..].strip_suffix(quote)?;
    (!inner.contains(['\'', '"', '\\'])).then_some(inner)
}

/// The specifiers of a module's static imports and re-exports, one statement per line as the client writes them:
/// `import { a } from './x.js';`, `import * as b from '../y.js';`, `export { c } from './z.js';`, `import './w.js';`.
pub fn static_imports(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let line = line.trim_start();
        let rest = if line.starts_with("import ") || line.starts_with("export ") {
            match line.rsplit_once(" from ") {
                Some((_, rest)) => rest,
                None => line.strip_prefix("import ")?,
            }
        } else {
            return None;
        };
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let inner = &rest[1..];
        inner.find(quote).map(|end| &inner[..end])
    })
}

/// The bundle path a relative specifier of the module `from` names (`../dom.js` from `js/pages/table.js` is
/// `js/dom.js`); `None` for a specifier that is not relative or leaves the bundle.
pub fn resolve(from: &str, target: &str) -> Option<String> {
    if !target.starts_with("./") && !target.starts_with("../") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(list: &[(&str, &str)]) -> impl Fn(&str) -> Option<Cow<'static, [u8]>> {
        let map: HashMap<String, Vec<u8>> = list
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.as_bytes().to_vec()))
            .collect();
        move |name: &str| map.get(name).map(|v| Cow::Owned(v.clone()))
    }

    #[test]
    fn imports_and_exports_are_rewritten_for_the_loader() {
        let text = wrap(
            "js/pages/x.js",
            "// a page\nimport { h, t as tr } from '../dom.js';\nimport * as sound from '../sound.js';\n\
             export const LIMIT = 3;\nexport async function mount(app) {\n  const m = await import('./y.js');\n  \
             return new URL('../img/a.svg', import.meta.url);\n}\nexport class Board {}\nexport default {\n  a: 1,\n};\n",
        )
        .unwrap();
        assert!(text.starts_with(
            "parlorModules.define(\"js/pages/x.js\", function ($import, $export, $load, $url) {\n"
        ));
        assert!(text.contains("$export({ LIMIT: () => LIMIT, mount: () => mount, Board: () => Board, default: () => $default });"), "{text}");
        assert!(
            text.contains("const { h, t: tr } = $import('../dom.js');"),
            "{text}"
        );
        assert!(text.contains("const sound = $import('../sound.js');"), "{text}");
        assert!(
            text.contains(
                "\nconst LIMIT = 3;\nasync function mount(app) {\n  const m = await $load('./y.js');"
            ),
            "{text}"
        );
        assert!(text.contains("new URL('../img/a.svg', $url)"), "{text}");
        assert!(
            text.contains("\nclass Board {}\nconst $default = {\n  a: 1,\n};\n"),
            "{text}"
        );
        assert!(text.ends_with("});\n"));
    }

    #[test]
    fn forms_the_loader_cannot_read_are_refused_with_their_line() {
        for (source, line) in [
            ("const a = 1;\nexport let b = 2;\n", 2),
            ("export { a, b };\n", 1),
            ("import {\n  a,\n} from './x.js';\n", 1),
            ("if (x) {\n  import('./y.js');\n  export const z = 1;\n}\n", 3),
            ("import './side.js';\n", 1),
            ("const here = import.meta.resolve('./x.js');\n", 1),
        ] {
            match wrap("js/m.js", source) {
                Err(ChunkError::Unsupported { line: found, .. }) => assert_eq!(found, line, "{source}"),
                other => panic!("{source}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_root_chunk_holds_its_imports_first_and_a_page_chunk_only_what_the_root_lacks() {
        let read = files(&[
            (
                "js/app.js",
                "import { h } from './dom.js';\nimport { go } from './net/socket.js';\nexport const app = h(go());\n",
            ),
            ("js/dom.js", "export function h(x) { return x; }\n"),
            (
                "js/net/socket.js",
                "import { h } from '../dom.js';\nexport function go() { return h(1); }\n",
            ),
            (
                "js/pages/table.js",
                "import { h } from '../dom.js';\nimport { rows } from '../model.js';\nexport function mount() { return rows(h); }\n",
            ),
            ("js/model.js", "export function rows(f) { return f; }\n"),
        ]);
        let root = chunk(ROOT, &read).unwrap();
        assert!(root.starts_with(&format!("{REGISTRY}{LOADER}")));
        let at = |name: &str| root.find(&format!("define(\"{name}\"")).unwrap();
        assert!(at("js/dom.js") < at("js/net/socket.js") && at("js/net/socket.js") < at("js/app.js"));
        assert!(root.ends_with("parlorModules.need(\"js/app.js\");\n"));
        let page = chunk("js/pages/table.js", &read).unwrap();
        assert!(page.starts_with(REGISTRY) && !page.contains(LOADER));
        assert!(page.contains("define(\"js/model.js\"") && page.contains("define(\"js/pages/table.js\""));
        assert!(!page.contains("define(\"js/dom.js\""), "{page}");
    }

    #[test]
    fn circles_and_missing_modules_are_errors() {
        let read = files(&[
            ("js/app.js", "import { a } from './a.js';\n"),
            ("js/a.js", "import { b } from './b.js';\nexport const a = 1;\n"),
            ("js/b.js", "import { a } from './a.js';\nexport const b = 2;\n"),
        ]);
        assert_eq!(
            chunk(ROOT, &read),
            Err(ChunkError::Circle {
                module: "js/a.js".to_owned()
            })
        );
        let read = files(&[("js/app.js", "import { a } from './gone.js';\n")]);
        assert!(matches!(chunk(ROOT, &read), Err(ChunkError::Missing { .. })));
    }

    #[test]
    fn comment_lines_are_emptied_and_code_strings_and_texts_kept() {
        let source = "/**\n * A doc comment.\n */\nconst a = 1; // kept with its line\n  // gone\nconst b = a / 2; /* kept */\n\
                      const r = /\"?x\\/*/.test(s); // a regex with a quote, a slash and a star\n\
                      const t = `# Rules\n// not a comment: the text of a template\n  - ${ {x: 1}.x } and ${f(`in`)}\n`;\n\
                      function g() { return /[/]\\//.exec(t); }\n/* one line */\nconst q = '//' + \"/*\";\n";
        let out = without_comment_lines(source).unwrap();
        let kept: Vec<&str> = out.lines().collect();
        let want: Vec<&str> = source
            .lines()
            .map(|l| {
                if ["/**", " * A doc comment.", " */", "  // gone", "/* one line */"].contains(&l) {
                    ""
                } else {
                    l
                }
            })
            .collect();
        assert_eq!(kept, want);
        for broken in [
            "const s = 'open\n",
            "const t = `open\n",
            "/* open\n",
            "const r = /open\n",
        ] {
            assert_eq!(without_comment_lines(broken), None, "{broken}");
        }
    }

    #[test]
    fn static_imports_are_read_and_resolved_within_the_bundle() {
        let text = "import { a, b } from '../dom.js';\nimport * as s from './sound.js';\nexport { c } from \"./x.js\";\n\
                    import './side.js';\nconst later = import('./lazy.js');\n// import nothing from here\nexport function fromView() {}\n";
        let found: Vec<&str> = static_imports(text).collect();
        assert_eq!(found, ["../dom.js", "./sound.js", "./x.js", "./side.js"]);
        assert_eq!(
            resolve("js/pages/table.js", "../dom.js").as_deref(),
            Some("js/dom.js")
        );
        assert_eq!(
            resolve("js/app.js", "./net/socket.js").as_deref(),
            Some("js/net/socket.js")
        );
        assert_eq!(resolve("js/app.js", "../../etc/passwd"), None);
        assert_eq!(resolve("js/app.js", "https://example.com/x.js"), None);
    }
}
