#!/usr/bin/env python3
"""The module graph of one crate: which module imports which, the import circles, and files over a line budget.

A module is a file (src/a.rs and src/a/mod.rs are `a`, src/a/b.rs is `a::b`, src/lib.rs and src/main.rs are the
crate root). A module imports another when it names it or something in it through `crate::` or `super::` paths
(in `use` lines or inline); `mod x;` declarations are not imports, and a file's `#[cfg(test)] mod tests` block is
left out. An import circle is a set of modules each reachable from every other (a strongly connected component
with more than one module).

    python3 tools/module_graph.py crates/server            # exit 1 on a circle or a file over 700 lines
    python3 tools/module_graph.py crates/server --mermaid  # the graph as a mermaid flowchart
    python3 tools/module_graph.py crates/server --max-lines 700 --include-tests

Standard library only.
"""

import argparse
import pathlib
import re
import sys


def module_of(src: pathlib.Path, file: pathlib.Path) -> tuple:
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return tuple(parts)


def strip(text: str) -> str:
    """The code without comments, string literals and the trailing test module."""
    cut = re.search(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+tests\s*\{", text)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text


def expand(tree: str) -> list:
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = tree.strip()
    brace = tree.find("{")
    if brace < 0:
        return [tree] if tree else []
    head = tree[:brace]
    body = tree[brace + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        for e in expand(p):
            out.append(head + e if e != "self" else head.rstrip(":"))
    return out


def paths_in(code: str) -> list:
    found = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        found += [re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+\s*$", "", p)) for p in expand(m.group(1))]
    inline = re.sub(r"\buse\s+[^;]+;", "", code)
    found += re.findall(r"\b((?:crate|super)(?:::\w+)+)", inline)
    return found


def resolve(path: str, here: tuple, modules: set):
    """The module a `crate::` or `super::` path lands in (the longest module prefix), or None."""
    segs = [s for s in path.split("::") if s and s != "*"]
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] == "super":
        base, rest = here, segs
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    else:
        return None
    best = base
    for i in range(1, len(rest) + 1):
        cand = base + tuple(rest[:i])
        if cand in modules:
            best = cand
    return best


def sccs(graph: dict) -> list:
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def name(m: tuple) -> str:
    return "::".join(m) if m else "crate"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("crate", help="the crate directory, e.g. crates/server")
    ap.add_argument("--max-lines", type=int, default=700)
    ap.add_argument("--include-tests", action="store_true", help="also hold the crate's tests/ files to the budget")
    ap.add_argument("--mermaid", action="store_true")
    a = ap.parse_args()
    root = pathlib.Path(a.crate)
    src = root / "src"
    files = sorted(src.rglob("*.rs"))
    modules = {module_of(src, f) for f in files}
    graph = {m: set() for m in modules}
    for f in files:
        here = module_of(src, f)
        for p in paths_in(strip(f.read_text(encoding="utf-8"))):
            target = resolve(p, here, modules)
            if target is not None and target != here:
                graph[here].add(target)

    if a.mermaid:
        print("flowchart TD")
        for m in sorted(graph):
            for t in sorted(graph[m]):
                print(f"  {name(m).replace('::', '_')}[{name(m)}] --> {name(t).replace('::', '_')}[{name(t)}]")
        return 0

    bad = 0
    for comp in sccs(graph):
        if len(comp) > 1:
            bad += 1
            members = sorted(comp)
            print(f"import circle: {', '.join(name(m) for m in members)}")
            for m in members:
                back = sorted(t for t in graph[m] if t in comp)
                print(f"  {name(m)} -> {', '.join(name(t) for t in back)}")
    budget_files = files + (sorted((root / "tests").rglob("*.rs")) if a.include_tests else [])
    for f in budget_files:
        n = sum(1 for _ in f.open(encoding="utf-8"))
        if n > a.max_lines:
            bad += 1
            print(f"over {a.max_lines} lines: {f} ({n})")
    if bad:
        return 1
    print(f"{len(modules)} modules of {root}, no import circle, no file over {a.max_lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
