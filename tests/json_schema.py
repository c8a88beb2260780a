#!/usr/bin/python3
"""json_schema.py - the JSON Schemas of share/doc/schema and documents checked
against them, with python3-jsonschema (4.x: Draft 2020-12), offline.

  json_schema.py SCHEMADIR
      Checks every SCHEMADIR/*.schema.json: a valid Draft 2020-12 schema
      (check_schema), "$schema" 2020-12, "$id" https://hes.invalid/schema/FILE,
      a title and a description, a description on every property, and every
      "$ref" resolving to a schema of the directory.

  json_schema.py SCHEMADIR NAME FILE [--lines] [MUTATION...]
      Validates FILE (one JSON document; with --lines one per non-empty
      line) against SCHEMADIR/NAME.schema.json, then every MUTATION applied
      to a fresh copy of each document, which must be rejected:
        del:PATH         remove the key or item at PATH
        set:PATH=JSON    set the value at PATH (a new key, or a replacement)
      PATH is keys and list indices separated by '/', e.g. orbit/events/0/t.

The documents are read strictly: NaN, Infinity and a key given twice are
errors (JSON has neither; hes writes null for a value that is not finite).
"integer" means a number written without a fraction or exponent (1, not 1.0).
Exit status 0 when every check passed, 1 when one failed (each is printed),
2 for bad usage, 77 when jsonschema (Draft 2020-12) is not installed.
"""

import copy
import glob
import json
import os
import sys
import urllib.parse

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("json_schema.py: python3-jsonschema (4.x, Draft 2020-12) is not installed")
    sys.exit(77)

BASE = "https://hes.invalid/schema/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def strict_integer(checker, instance):
    return isinstance(instance, int) and not isinstance(instance, bool)


Validator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", strict_integer))


def load_strict(text, where):
    def no_constant(name):
        raise ValueError("%s: %s is not JSON" % (where, name))

    def no_duplicates(pairs):
        obj = {}
        for key, value in pairs:
            if key in obj:
                raise ValueError("%s: key '%s' given twice" % (where, key))
            obj[key] = value
        return obj
    return json.loads(text, parse_constant=no_constant, object_pairs_hook=no_duplicates)


def load_store(schemadir):
    store = {}
    for path in sorted(glob.glob(os.path.join(schemadir, "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            schema = load_strict(f.read(), path)
        store[BASE + os.path.basename(path)] = schema
    return store


def make_validator(store, schema):
    try:
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (uri, Resource.from_contents(s)) for uri, s in store.items())
        return Validator(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return Validator(schema, resolver=resolver)


def pointer(doc, fragment):
    for part in fragment.lstrip("/").split("/") if fragment else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, list):
            doc = doc[int(part)]
        else:
            doc = doc[part]
    return doc


def lint(store):
    """The house rules of the schemas; a list of complaints."""
    bad = []

    def walk(node, where, uri, in_properties, conditional):
        # in_properties: node is a "properties" object; conditional: within
        # if, then, else or not, which constrain properties declared elsewhere
        if isinstance(node, dict):
            if in_properties:
                for key, sub in node.items():
                    if not conditional and (not isinstance(sub, dict) or "description" not in sub):
                        bad.append("%s: property '%s' has no description" % (where, key))
                    walk(sub, where + "/" + key, uri, False, conditional)
                return
            ref = node.get("$ref")
            if isinstance(ref, str):
                target, _, fragment = urllib.parse.urljoin(uri, ref).partition("#")
                try:
                    pointer(store[target], fragment)
                except (KeyError, IndexError, ValueError):
                    bad.append("%s: $ref '%s' does not resolve" % (where, ref))
            for key, sub in node.items():
                walk(sub, where + "/" + key, uri, key == "properties",
                     conditional or key in ("if", "then", "else", "not"))
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, "%s/%d" % (where, i), uri, False, conditional)

    for uri, schema in store.items():
        name = uri[len(BASE):]
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            bad.append("%s: not a valid Draft 2020-12 schema: %s" % (name, e.message))
        if schema.get("$schema") != DRAFT:
            bad.append("%s: \"$schema\" is not %s" % (name, DRAFT))
        if schema.get("$id") != uri:
            bad.append("%s: \"$id\" is not %s" % (name, uri))
        for key in ("title", "description"):
            if not schema.get(key):
                bad.append("%s: no %s" % (name, key))
        walk(schema, name, uri, False, False)
    return bad


def mutate(doc, spec):
    """A copy of doc with the mutation spec applied."""
    doc = copy.deepcopy(doc)
    op, _, rest = spec.partition(":")
    if op == "set":
        path, eq, value = rest.partition("=")
        if not eq:
            raise ValueError("mutation '%s': set needs PATH=JSON" % spec)
        value = json.loads(value)
    elif op == "del":
        path = rest
    else:
        raise ValueError("mutation '%s': not del:PATH or set:PATH=JSON" % spec)
    parts = path.split("/")
    parent = doc
    for part in parts[:-1]:
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    last = parts[-1]
    if isinstance(parent, list):
        last = int(last)
        if op == "del":
            del parent[last]
        else:
            parent[last] = value
    elif op == "del":
        del parent[last]          # KeyError: the path is not in the document
    else:
        parent[last] = value
    return doc


def first_error(validator, doc):
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(the document)"
    return "%s: %s" % (where, error.message)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    schemadir = argv[1]
    store = load_store(schemadir)
    if not store:
        print("json_schema.py: no *.schema.json in %s" % schemadir)
        return 1
    if len(argv) == 2:
        bad = lint(store)
        for b in bad:
            print("FAIL: " + b)
        return 1 if bad else 0
    if len(argv) < 4:
        print("usage: json_schema.py SCHEMADIR NAME FILE [--lines] [MUTATION...]")
        return 2
    name, path = argv[2], argv[3]
    rest = argv[4:]
    lines = "--lines" in rest
    mutations = [m for m in rest if m != "--lines"]
    uri = BASE + name + ".schema.json"
    if uri not in store:
        print("FAIL: no schema %s in %s" % (name, schemadir))
        return 1
    validator = make_validator(store, store[uri])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        if lines:
            docs = [load_strict(line, "%s line %d" % (path, i + 1))
                    for i, line in enumerate(text.splitlines()) if line.strip()]
        else:
            docs = [load_strict(text, path)]
    except ValueError as e:
        print("FAIL: %s is not strict JSON: %s" % (path, e))
        return 1
    if not docs:
        print("FAIL: %s holds no document" % path)
        return 1
    failed = 0
    for i, doc in enumerate(docs):
        label = "%s%s" % (path, " line %d" % (i + 1) if lines else "")
        why = first_error(validator, doc)
        if why:
            print("FAIL: %s does not match %s: %s" % (label, name, why))
            failed += 1
        for spec in mutations:
            try:
                changed = mutate(doc, spec)
            except (KeyError, IndexError, TypeError, ValueError) as e:
                print("FAIL: %s: mutation %s does not apply (%s: %s)"
                      % (label, spec, type(e).__name__, e))
                failed += 1
                continue
            if first_error(validator, changed) is None:
                print("FAIL: %s with %s still matches %s" % (label, spec, name))
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
