#!/usr/bin/env python3
"""Adds the nullability annotations to cbindgen's mcp_resources.h.

Usage: header-nullability.py IN OUT (scripts/gen-header.sh runs it on
cbindgen's output). cbindgen has no way to say which raw pointers of the C
ABI may be NULL (it marks every raw pointer alike), so this step reads the
documentation cbindgen copied from src/ffi and writes what it says into the
declarations. The header opens a `#pragma clang assume_nonnull` region
(cbindgen.toml, after_includes) and this step closes it at the end of the
include guard; inside it, a pointer without an annotation is non-null, and:

- a parameter of a function or of a callback type is MCPR_NULLABLE when its
  `\\param` text mentions NULL (the documentation's wording for "NULL is
  allowed": "or NULL", "may be NULL", "NULL otherwise", "NULL for none"...),
  and stays non-null when it does not; a text that says both ("never NULL"
  beside another NULL) is refused;
- a returned pointer is MCPR_NULLABLE when the `\\return` text mentions NULL
  other than as "never NULL";
- every pointer field of a struct is MCPR_NULLABLE (every struct of the ABI
  starts zeroed, from its *_INIT macro or *_init function, and NULL is each
  field's default or refused as documented);
- the inner pointer of a pointer to pointer (the out-parameters `T **out`,
  `mcpr_error **err`) is MCPR_NULLABLE (the caller's variable starts NULL;
  the library writes it only as documented), and the outer pointer gets an
  explicit MCPR_NULLABLE or MCPR_NONNULL (clang infers nothing for
  multi-level pointers).

It also completes the handle structs for Swift only (see SWIFT_HANDLES), so
that Swift sees one pointer type per handle instead of OpaquePointer.

It fails, changing nothing, when its input is not what it expects: a
declaration it cannot read, a pointer parameter without `\\param`, an
already annotated input, a missing anchor.
"""
import re
import sys

NULLABLE = "MCPR_NULLABLE"
NONNULL = "MCPR_NONNULL"
GUARD_END = "#endif  /* MCP_RESOURCES_H */"
REGION_END = """#if defined(__clang__)
#pragma clang assume_nonnull end
#pragma clang diagnostic pop
#endif
"""
NEVER_NULL = re.compile(r"\b(never|not be|non-)\s*NULL\b")
MENTIONS_NULL = re.compile(r"\bNULL\b")

PROTOTYPE = re.compile(r"^(?P<ret>[a-z][\w ]*?[\w*]) ?(?P<name>mcpr_\w+)\((?P<params>.*)\);$")
FN_TYPEDEF = re.compile(r"^typedef (?P<ret>[\w ]+?[\w*]) ?\(\*(?P<name>mcpr_\w+)\)\((?P<params>.*)\);$")
POINTER = re.compile(r"^(?P<base>(const )?\w+) (?P<stars>\*+)(?P<name>\w+)$")
FN_POINTER = re.compile(r"^(?P<base>mcpr_\w+_fn) (?P<name>\w+)$")
PLAIN = re.compile(r"^(const )?\w+( \w+)* \w+$")
FIELD = re.compile(r"^    (?P<decl>[^/*].*);$")


class Refused(Exception):
    pass


def allows_null(text, what):
    """Whether documentation text says NULL is allowed."""
    if not MENTIONS_NULL.search(text):
        return False
    rest = NEVER_NULL.sub("", text)
    if NEVER_NULL.search(text):
        if MENTIONS_NULL.search(rest):
            raise Refused(f"{what}: says both 'never NULL' and NULL ({text!r})")
        return False
    return True


def doc_before(lines, i):
    """The /** ... */ block ending on the line just before lines[i]."""
    if i == 0 or lines[i - 1].strip() != "*/":
        return ""
    j = i - 1
    while j > 0 and not lines[j].lstrip().startswith("/**"):
        j -= 1
    return "\n".join(lines[j:i])


def doc_sections(doc):
    """{'param NAME': text, 'return': text} from a Doxygen comment."""
    out, cur = {}, None
    for line in doc.split("\n"):
        s = line.strip()
        if s.startswith("/**") or s == "*/":
            cur = None
            continue
        s = s[1:].strip() if s.startswith("*") else s
        m = re.match(r"\\param (\w+) ?(.*)", s)
        if m:
            cur = "param " + m.group(1)
            out[cur] = m.group(2)
            continue
        m = re.match(r"\\return ?(.*)", s)
        if m:
            cur = "return"
            out[cur] = m.group(1)
            continue
        if not s or s.startswith("\\"):
            cur = None
            continue
        if cur:
            out[cur] += " " + s
    return out


def annotate(decl, nullable, what):
    """A parameter or field declaration with its annotations."""
    if NULLABLE in decl or NONNULL in decl:
        raise Refused(f"{what}: already annotated ({decl!r})")
    m = POINTER.match(decl)
    if m:
        base, stars, name = m.group("base"), m.group("stars"), m.group("name")
        if len(stars) == 1:
            return f"{base} *{NULLABLE} {name}" if nullable else decl
        if len(stars) == 2:
            outer = NULLABLE if nullable else NONNULL
            return f"{base} *{NULLABLE} *{outer} {name}"
        raise Refused(f"{what}: a pointer of {len(stars)} levels ({decl!r})")
    m = FN_POINTER.match(decl)
    if m:
        return f"{m.group('base')} {NULLABLE} {m.group('name')}" if nullable else decl
    if "*" in decl or not PLAIN.match(decl):
        raise Refused(f"{what}: a declaration this step cannot read ({decl!r})")
    return decl


def is_pointer(decl):
    return bool(POINTER.match(decl) or FN_POINTER.match(decl))


HANDLE = re.compile(r"^typedef struct (mcpr_\w+) (mcpr_\w+);$")
SWIFT_HANDLES = """/*
 * Swift imports every pointer to an incomplete struct as the same type,
 * OpaquePointer. For Swift only (its compiler defines __swift__) the
 * handles below are complete, empty structs, so that each is its own type
 * there (UnsafePointer<mcpr_bundle>, UnsafeMutablePointer<mcpr_builder>,
 * ...). They stay opaque: no fields, never allocated or read by the caller.
 */
#if defined(__swift__)
{structs}
#endif
"""


def swift_handles(lines):
    """Inserts SWIFT_HANDLES before the first handle typedef's comment."""
    names = [m.group(1) for m in map(HANDLE.match, lines) if m and m.group(1) == m.group(2)]
    if len(names) < 10:
        raise Refused(f"only {len(names)} handle typedefs (typedef struct mcpr_x mcpr_x;)")
    first = next(i for i, l in enumerate(lines) if HANDLE.match(l))
    at = first
    if lines[first - 1].strip() == "*/":
        while not lines[at - 1].lstrip().startswith("/**"):
            at -= 1
        at -= 1
    block = SWIFT_HANDLES.format(structs="\n".join(f"struct {n} {{}};" for n in names))
    return lines[:at] + block.split("\n") + lines[at:]


def process(text):
    lines = swift_handles(text.split("\n"))
    if any(NULLABLE in l or NONNULL in l for l in lines if not l.startswith(("#define", " *", "/*"))):
        raise Refused("the input is already annotated")
    if lines.count(GUARD_END) != 1:
        raise Refused(f"no single {GUARD_END!r} line")
    if "#pragma clang assume_nonnull begin" not in text:
        raise Refused("cbindgen.toml's after_includes no longer opens the assume_nonnull region")
    out, in_struct, counts = [], False, {"nullable": 0, "declarations": 0}
    for i, line in enumerate(lines):
        if line == GUARD_END:
            out.append(REGION_END)
            out.append(line)
            continue
        if line.startswith("typedef struct {"):
            in_struct = True
        elif in_struct and line.startswith("} "):
            in_struct = False
        elif in_struct:
            m = FIELD.match(line)
            if m:
                decl = m.group("decl")
                if is_pointer(decl):
                    line = "    " + annotate(decl, True, f"field {decl!r}") + ";"
                    counts["nullable"] += 1
        m = FN_TYPEDEF.match(line) or (None if line.startswith("typedef") else PROTOTYPE.match(line))
        if m:
            name, ret, params = m.group("name"), m.group("ret"), m.group("params")
            counts["declarations"] += 1
            docs = doc_sections(doc_before(lines, i))
            if "*" in ret:
                if not ret.endswith(" *") or ret.count("*") != 1:
                    raise Refused(f"{name}: a return type this step cannot read ({ret!r})")
                if "return" not in docs:
                    raise Refused(f"{name}: returns a pointer without \\return")
                if allows_null(docs["return"], f"{name} \\return"):
                    ret = f"{ret}{NULLABLE} "
                    counts["nullable"] += 1
            new_params = []
            if params.strip() != "void":
                for p in params.split(", "):
                    p = p.strip()
                    if is_pointer(p) or "*" in p:
                        pname = re.split(r"[ *]", p)[-1]
                        key = "param " + pname
                        if key not in docs:
                            raise Refused(f"{name}: pointer parameter {pname} has no \\param")
                        nullable = allows_null(docs[key], f"{name} \\param {pname}")
                        counts["nullable"] += nullable
                        p = annotate(p, nullable, f"{name} parameter {pname}")
                    else:
                        annotate(p, False, f"{name} parameter {p!r}")
                    new_params.append(p)
            else:
                new_params = ["void"]
            joined = ", ".join(new_params)
            sep = "" if ret.endswith("*") or ret.endswith(" ") else " "
            if line.startswith("typedef"):
                line = f"typedef {ret}{sep}(*{name})({joined});"
            else:
                line = f"{ret}{sep}{name}({joined});"
        out.append(line)
    if counts["declarations"] < 100 or counts["nullable"] < 100:
        raise Refused(f"found only {counts['declarations']} declarations and {counts['nullable']} "
                      "nullable pointers: the header's shape changed")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        print("usage: header-nullability.py IN OUT", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    try:
        result = process(text)
    except Refused as e:
        print(f"header-nullability: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
