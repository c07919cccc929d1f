#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# layout-check.py TOP [OBJDIR] - the library's walls, as KTAP
# (Documentation/vtrace-design.rst):
#  - no include cycle between units (a unit is NAME.c with NAME.h) of
#    tools/lib/ and tools/vtrace/;
#  - with OBJDIR (a build of tools/vtrace with OUTPUT=OBJDIR/), no cycle
#    between the libraries' objects through the symbols they define and
#    use;
#  - tracefs is written from tools/lib/vtrace/tracefs/ only;
#  - a public header (include/vtrace/) includes no private one, and the
#    CLI includes none;
#  - the prefix rule: functions a public header declares are vtrace_*,
#    those a private header declares vt_* (or static).

import os
import re
import subprocess
import sys

top = os.path.abspath(sys.argv[1])
objdir = sys.argv[2] if len(sys.argv) > 2 else None
lib = 'tools/lib/vtrace'
include_re = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)
# libtracefs calls that change tracefs, and the raw writes that would
# bypass them.
write_re = re.compile(
    r'\b(tracefs_(instance_)?file_(write|append|clear)|'
    r'tracefs_event_file_(write|append|clear)|'
    r'tracefs_instance_(create|destroy)|tracefs_trace_(on|off)|'
    r'tracefs_option_(enable|disable)|tracefs_event_(enable|disable)|'
    r'tracefs_(set|clear)_\w+)\s*\(')


def sources():
    out = subprocess.run(['git', '-C', top, 'ls-files', 'tools/lib',
                          'tools/vtrace'], capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if f.endswith(('.c', '.h'))]


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def resolve(includer, quote, name, files):
    """The tree's file an #include names, or None for a system header."""
    cands = []
    if quote == '"':
        cands.append(os.path.join(os.path.dirname(includer), name))
        cands.append(os.path.join(lib, name))
    cands.append(os.path.join(lib, 'include', name))
    cands.append(os.path.join('tools/lib/atrace/include', name))
    for c in cands:
        c = os.path.normpath(c)
        if c in files:
            return c
    return None


def unit(path):
    return os.path.splitext(os.path.basename(path))[0]


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
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
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


results = []


def result(ok, name, problems):
    results.append((ok, name, problems))


files = set(sources())
texts = {f: open(os.path.join(top, f)).read() for f in files}

# Units are the .c files, keyed by folder and stem so that two folders'
# NAME.c stay apart; a header belongs to the unit of its stem. A header
# with no unit of its own (a room's NAME-local.h, a format's constants)
# is transparent: who includes it depends on what it includes.
stems = {}
for f in files:
    if f.endswith('.c'):
        stems.setdefault(unit(f), set()).add(f)


def unit_key(path):
    if path.endswith('.c'):
        return os.path.splitext(path)[0]
    owners = stems.get(unit(path), set())
    if len(owners) == 1:
        return os.path.splitext(next(iter(owners)))[0]
    return None


def deps(path, seen):
    """The units @path depends on through its includes."""
    out = set()
    for quote, name in include_re.findall(strip_comments(texts[path])):
        target = resolve(path, quote, name, files)
        if not target or target in seen:
            continue
        seen.add(target)
        if unit_key(target):
            out.add(unit_key(target))
        else:
            out |= deps(target, seen)
    return out


graph = {}
for f in files:
    key = unit_key(f)
    if key:
        graph.setdefault(key, set())
        graph[key] |= deps(f, {f}) - {key}
found = cycles(graph)
result(not found, f'no include cycle between units: {len(found)} found',
       [' <-> '.join(c) for c in found])

if objdir:
    defs, uses = {}, {}
    objs = []
    for root, _, names in os.walk(objdir):
        objs += [os.path.join(root, n) for n in names if n.endswith('.o')
                 and ('/libvtrace' in root)]
    for o in objs:
        uses[o] = set()
        nm = subprocess.run(['nm', o], capture_output=True, text=True,
                            check=True).stdout
        for line in nm.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'TDBRC':
                defs[parts[2]] = o
            elif len(parts) == 2 and parts[0] == 'U':
                uses[o].add(parts[1])
    ograph = {o: {defs[s] for s in uses[o] if s in defs and defs[s] != o}
              for o in objs}
    found = cycles(ograph)
    result(bool(objs) and not found,
           f'no symbol cycle between {len(objs)} library objects: '
           f'{len(found)} found',
           [' <-> '.join(os.path.relpath(x, objdir) for x in c)
            for c in found] + ([] if objs else ['no objects in ' + objdir]))

writers = []
for f in sorted(files):
    if f.startswith(lib + '/tracefs/') or not f.endswith('.c'):
        continue
    body = strip_comments(texts[f])
    for m in write_re.finditer(body):
        line = body.count('\n', 0, m.start()) + 1
        writers.append(f'{f}: {m.group(1)}() (line {line} without comments)')
result(not writers,
       f'tracefs written from {lib}/tracefs/ only: {len(writers)} elsewhere',
       writers)

leaks = []
for f in sorted(files):
    public = f.startswith(lib + '/include/') or f.startswith('tools/vtrace/')
    if not public:
        continue
    for quote, name in include_re.findall(strip_comments(texts[f])):
        target = resolve(f, quote, name, files)
        if target and target.startswith(lib + '/') and \
                not target.startswith(lib + '/include/'):
            leaks.append(f'{f} includes private {target}')
result(not leaks,
       f'public headers and the CLI include no private header: '
       f'{len(leaks)} do', leaks)

decl_re = re.compile(r'^(?:[a-z][\w \*]*?[ \*])?((?:vt|vtrace)_\w+)\s*\(', re.M)
misnamed = []
for f in sorted(files):
    if not f.startswith(lib + '/') or not f.endswith('.h'):
        continue
    public = f.startswith(lib + '/include/')
    for name in decl_re.findall(strip_comments(texts[f])):
        if public != name.startswith('vtrace_'):
            misnamed.append(f'{f}: {name}() ({"public" if public else "private"})')
result(not misnamed,
       f'public functions vtrace_*, private ones vt_*: {len(misnamed)} not',
       misnamed)

print('TAP version 13')
print(f'1..{len(results)}')
for n, (ok, name, problems) in enumerate(results, 1):
    for p in problems:
        print(f'# {p}')
    print(f'{"ok" if ok else "not ok"} {n} {name}')
sys.exit(0 if all(ok for ok, _, _ in results) else 1)
