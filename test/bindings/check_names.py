#!/usr/bin/env python3
"""Names of the public API as Python, Java and Go see them.

jsii-pacmak renames quietly: a property named `default` becomes `getDefaultValue()` in Java, a
parameter named `lambda` becomes `lambda_` in Python, a method named `import` becomes `doImport()`
in Java. Two members can also meet in one language only: a property `foo` and a method `getFoo()`
in Java, a mutable property `foo` and a method `setFoo()` in Java and Go, struct keyword arguments
that Python lifts into a signature whose positional parameters already use the name.

This script reads the compiled assembly (.jsii) and the assemblies it depends on, and reports:

- errors: a rename or a clash in a type written by hand (src/), which the API's authors can fix;
- notes: renames in the generated L1 classes (imports/), whose names are the CRD's field names and
  stay as they are, and API shape that reads oddly in one language (protected members, which Go
  makes public; constructors with two struct parameters, whose Java builder lifts only one).

It exits 1 when there is an error. Usage: check_names.py [path/to/.jsii]
"""
import gzip
import json
import os
import re
import sys

# Mirrors of jsii-pacmak's lists (lib/targets/python/util.js, java.js, go/util.js).
PYTHON_KEYWORDS = {
    'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
    'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
    'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
}
JAVA_RESERVED = {
    'abstract', 'assert', 'boolean', 'break', 'build', 'byte', 'case', 'catch', 'char', 'class',
    'const', 'continue', 'default', 'double', 'do', 'else', 'enum', 'extends', 'false', 'final',
    'finally', 'float', 'for', 'goto', 'if', 'implements', 'import', 'instanceof', 'int', 'interface',
    'long', 'native', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'short',
    'static', 'strictfp', 'super', 'switch', 'synchronized', 'this', 'throw', 'throws', 'transient',
    'true', 'try', 'void', 'volatile', 'while', '_',
}
GO_RESERVED = {
    'break', 'default', 'func', 'interface', 'select', 'case', 'defer', 'go', 'map', 'struct', 'chan',
    'else', 'goto', 'package', 'switch', 'const', 'fallthrough', 'if', 'range', 'type', 'continue',
    'for', 'import', 'return', 'var', '_',
}
# Methods of java.lang.Object that a generated getter or method would clash with.
JAVA_OBJECT_METHODS = {'getClass', 'hashCode', 'equals', 'clone', 'finalize', 'notify', 'notifyAll', 'wait'}


def load_assembly(path):
    with open(path, 'rb') as f:
        data = json.load(f)
    if data.get('schema') == 'jsii/file-redirect':
        target = os.path.join(os.path.dirname(path), data['filename'])
        with open(target, 'rb') as f:
            raw = f.read()
        data = json.loads(gzip.decompress(raw) if data.get('compression') == 'gzip' else raw)
    return data


def load_types(root_assembly, root_dir):
    """Every type of the assembly and of its dependencies, by fully qualified name."""
    types = dict(root_assembly['types'])
    seen = {root_assembly['name']}
    pending = list((root_assembly.get('dependencies') or {}).keys())
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        path = os.path.join(root_dir, 'node_modules', name, '.jsii')
        if not os.path.exists(path):
            continue
        dep = load_assembly(path)
        types.update(dep['types'])
        pending.extend((dep.get('dependencies') or {}).keys())
    return types


def snake(name):
    """jsii's camelCase -> snake_case (as pacmak's Python target does it, closely enough)."""
    if name.upper() == name:
        return name  # constants stay as they are
    s = re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1_\2', name)
    s = re.sub(r'([a-z0-9])([A-Z])', r'\1_\2', s)
    return s.lower()


def pascal(name):
    return name[:1].upper() + name[1:]


def struct_fqn(param, types):
    ref = (param.get('type') or {}).get('fqn')
    t = types.get(ref) if ref else None
    return ref if t and t.get('kind') == 'interface' and t.get('datatype') else None


def struct_properties(fqn, types):
    """Names of a struct's properties, with those it inherits."""
    out = []
    stack = [fqn]
    while stack:
        t = types.get(stack.pop())
        if not t:
            continue
        out.extend(p['name'] for p in t.get('properties', []))
        stack.extend(t.get('interfaces', []))
    return out


def class_members(fqn, types):
    """(properties, methods) of a class or interface with those of its bases in any assembly."""
    props, methods = {}, {}
    stack = [fqn]
    while stack:
        t = types.get(stack.pop())
        if not t:
            continue
        for p in t.get('properties', []):
            props.setdefault(p['name'], p)
        for m in t.get('methods', []):
            methods.setdefault(m['name'], m)
        if t.get('base'):
            stack.append(t['base'])
        stack.extend(t.get('interfaces', []))
    return props, methods


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else '.jsii'
    root_dir = os.path.dirname(os.path.abspath(path))
    assembly = load_assembly(path)
    types = load_types(assembly, root_dir)
    errors, notes = [], []

    for fqn, t in sorted(assembly['types'].items()):
        where = (t.get('locationInModule') or {}).get('filename', '?')
        generated = not where.startswith('src/')
        report = notes if generated else errors
        label = f'{fqn} ({where})'
        own_props = t.get('properties', [])
        own_methods = t.get('methods', [])
        callables = ([('constructor', t['initializer'])] if t.get('initializer') else []) + \
            [(m['name'], m) for m in own_methods]

        # Renames of members.
        for member in own_props + own_methods:
            name = member['name']
            kind = 'method' if member in own_methods else 'property'
            if snake(name) in PYTHON_KEYWORDS:
                report.append(f'{label}: {kind} `{name}` is `{snake(name)}_` in Python (a keyword)')
            if name in JAVA_RESERVED:
                java = f'do{pascal(name)}()' if kind == 'method' else \
                    (f'get{pascal(name)}Value()' if t['kind'] == 'class' or not t.get('datatype') else f'get{pascal(name)}Value() / builder .{name}Value(...)')
                report.append(f'{label}: {kind} `{name}` is `{java}` in Java (a reserved word)')

        # Renames of parameters (visible as Python keyword arguments; Go and Java names only in docs).
        for name, c in callables:
            for p in c.get('parameters', []):
                if p['name'] in PYTHON_KEYWORDS or snake(p['name']) in PYTHON_KEYWORDS:
                    report.append(f'{label}: parameter `{p["name"]}` of {name} is `{snake(p["name"])}_` in Python')
                elif p['name'] in JAVA_RESERVED or p['name'] in GO_RESERVED:
                    notes.append(f'{label}: parameter `{p["name"]}` of {name} is renamed in Java/Go (not visible at call sites)')

        # Python lifts the last parameter's struct properties into keyword arguments.
        for name, c in callables:
            params = c.get('parameters', [])
            if not params or params[-1].get('variadic'):
                continue
            fqn_struct = struct_fqn(params[-1], types)
            if not fqn_struct:
                continue
            positional = {snake(p['name']) for p in params[:-1]} | {'self'}
            lifted = [snake(n) for n in struct_properties(fqn_struct, types)]
            for n in sorted(positional & set(lifted)):
                report.append(f'{label}: {name} takes `{n}` both positionally and as a keyword of {fqn_struct} in Python')
            dupes = sorted({n for n in lifted if lifted.count(n) > 1})
            for n in dupes:
                report.append(f'{label}: {name} lifts two properties named `{n}` in Python')
            structs = [p['name'] for p in params if struct_fqn(p, types)]
            if name == 'constructor' and len(structs) > 1:
                notes.append(f'{label}: the constructor takes {len(structs)} struct parameters ({", ".join(structs)}); '
                             'the Java Builder lifts the properties of only one of them and Python only the last')

        if t['kind'] == 'class' or (t['kind'] == 'interface' and not t.get('datatype')):
            props, methods = class_members(fqn, types)
            own_names = {m['name'] for m in own_props + own_methods}
            # Java getters and setters, Go getters and setters against methods.
            for pname, p in props.items():
                getter, setter = f'get{pascal(pname)}', f'set{pascal(pname)}'
                if getter in methods and (pname in own_names or getter in own_names):
                    report.append(f'{label}: property `{pname}` (Java {getter}()) clashes with method `{getter}`')
                if not p.get('immutable') and setter in methods and (pname in own_names or setter in own_names):
                    report.append(f'{label}: mutable property `{pname}` (Java and Go {setter}) clashes with method `{setter}`')
                if getter in JAVA_OBJECT_METHODS and pname in own_names and pname not in JAVA_RESERVED:
                    report.append(f'{label}: property `{pname}` would be Java {getter}(), a method of java.lang.Object')
            for mname in methods:
                if mname in JAVA_OBJECT_METHODS and mname in own_names:
                    report.append(f'{label}: method `{mname}` is a method of java.lang.Object')
            # Go capitalizes every member: two that differ only in their first letter meet.
            go_names = {}
            for n in list(props) + list(methods):
                go_names.setdefault(pascal(n), set()).add(n)
            for go, names in sorted(go_names.items()):
                if len(names) > 1 and names & own_names:
                    report.append(f'{label}: members {sorted(names)} are all `{go}` in Go')
            # Python snake_case: two members that meet.
            py_names = {}
            for n in list(props) + list(methods):
                py_names.setdefault(snake(n), set()).add(n)
            for py, names in sorted(py_names.items()):
                if len(names) > 1 and names & own_names:
                    report.append(f'{label}: members {sorted(names)} are all `{py}` in Python')
            # Go has no protected members: they become part of the public API there.
            protected = sorted(m['name'] for m in own_props + own_methods if m.get('protected'))
            if protected and not generated:
                notes.append(f'{label}: protected {", ".join(protected)} are public methods in Go '
                             f'({", ".join(pascal(n) + "()" for n in protected)}), callable on every subclass')

    # Go: top-level identifiers of a package (one package per submodule) must not meet.
    go_idents = {}
    for fqn, t in assembly['types'].items():
        parts = fqn.split('.')
        package, name = '.'.join(parts[:-1]), parts[-1]
        ids = [name]
        if t['kind'] == 'class':
            ids += [f'New{name}', f'New{name}_Override']
            ids += [f'{name}_{pascal(m["name"])}' for m in t.get('methods', []) if m.get('static')]
            ids += [f'{name}_{p["name"]}' for p in t.get('properties', []) if p.get('static')]
        for ident in ids:
            go_idents.setdefault((package, ident), []).append(fqn)
    for (package, ident), owners in sorted(go_idents.items()):
        if len(owners) > 1:
            errors.append(f'{package}: Go identifier `{ident}` is generated for {sorted(set(owners))}')

    for n in notes:
        print(f'note: {n}')
    for e in errors:
        print(f'error: {e}')
    print(f'check_names: {len(assembly["types"])} types, {len(errors)} errors, {len(notes)} notes')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
