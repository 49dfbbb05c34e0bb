#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reports the C++ functions longer than a limit (issue 26: no function over 150 lines).

    scripts/function_lengths.py [--limit N] [--all] [PATH ...]

PATHs are files or folders (their *.cpp and *.h, recursively); the default is core/, widgets/ and
app/ of the checkout. Prints `file:line: name N lines` for every function over the limit (default
150), longest first, and exits 1 when there is one (2 when a file's braces do not match). --all
prints every function, whatever its length, and exits 0.

A function's length is the count of lines from the first line of its signature (a template<...>
line included) to the line of its closing brace. Free functions, member functions defined in or
out of their class, constructors, destructors and operators are counted; a lambda, a local class
or a nested block is part of the function it is written in. A lambda assigned to a variable at
namespace or class scope counts as a function of that name.

No build is needed: a brace-matching scan of each file with its comments, string and character
literals (raw strings too) and preprocessor lines blanked out. A `{` at namespace or class scope
opens a function body when it follows a parameter list's `)` with nothing in between but
qualifiers (const, noexcept, override, final, &, a trailing return type) or a constructor's
initialiser list. Standard library only.
"""

import argparse
import os
import re
import sys

DEFAULT_LIMIT = 150
DEFAULT_DIRS = ("core", "widgets", "app")
SOURCE_SUFFIXES = (".cpp", ".h")

_IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")
_RAW_PREFIX = re.compile(r"(?:u8|u|U|L)?R$")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.']*|::|->|\S")
# Words after a parameter list's `)` that leave it a declarator (before `{` or `:`).
_QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "&", "&&", "throw", "mutable",
               "constexpr"}
_ACCESS_WORDS = {"public", "private", "protected", "signals", "slots", "Q_SIGNALS", "Q_SLOTS"}
_CLASS_WORDS = {"class", "struct", "union"}


class BraceError(Exception):
    """A file whose braces do not match after the blanking: its lengths would be wrong."""


def blank_non_code(text):
    """The text with comments, string and character literals and preprocessor lines replaced by
    spaces (newlines kept, so line numbers stay). Literal delimiters are kept as `""` / `''`."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True  # only whitespace since the last newline (a `#` there starts a directive)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            # A directive, with its backslash-continued lines (comments inside are blanked too).
            j = i
            while j < n and text[j] != "\n":
                if text.startswith("/*", j):
                    k = text.find("*/", j + 2)
                    j = n if k < 0 else k + 2
                    continue
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            blank(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
            continue
        if c == '"':
            word_start = i
            while word_start > 0 and _IDENT_CHAR.match(text[word_start - 1]):
                word_start -= 1
            prefix = text[word_start:i]
            if _RAW_PREFIX.match(prefix):
                open_paren = text.find("(", i + 1)
                if open_paren < 0:
                    raise BraceError("raw string without '('")
                delimiter = text[i + 1:open_paren]
                close = text.find(")" + delimiter + '"', open_paren + 1)
                if close < 0:
                    raise BraceError("unterminated raw string")
                end = close + len(delimiter) + 2
            else:
                end = _quoted_end(text, i, '"')
            blank(i + 1, end - 1)
            i = end
            continue
        if c == "'":
            # A digit separator (1'000'000, 0xFF'FF) when it is inside a number.
            word_start = i
            while word_start > 0 and (_IDENT_CHAR.match(text[word_start - 1]) or text[word_start - 1] == "'"):
                word_start -= 1
            if word_start < i and text[word_start].isdigit():
                i += 1
                continue
            end = _quoted_end(text, i, "'")
            blank(i + 1, end - 1)
            i = end
            continue
        i += 1
    return "".join(out)


def _quoted_end(text, start, quote):
    """The index after the closing `quote` of the literal opened at `start` (escapes skipped)."""
    i = start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == quote:
            return i + 1
        if c == "\n":
            raise BraceError("unterminated literal on line %d" % (text.count("\n", 0, start) + 1))
        i += 1
    raise BraceError("unterminated literal")


def tokenize(code):
    """(token, line) pairs of blanked code: identifiers, numbers, `::`, `->`, single characters."""
    tokens = []
    line = 1
    pos = 0
    for m in _TOKEN.finditer(code):
        line += code.count("\n", pos, m.start())
        pos = m.start()
        tokens.append((m.group(), line))
    return tokens


def _strip_head(head):
    """The declaration head without what precedes the declaration proper: access labels
    (`public:`, `public slots:`, `signals:`) and Qt's statement-less macros (Q_OBJECT,
    Q_PROPERTY(...), Q_DECLARE_TR_FUNCTIONS(...)) at its start."""
    # Everything up to the last access label goes.
    for k in range(len(head) - 1, 0, -1):
        if head[k][0] == ":" and head[k - 1][0] in _ACCESS_WORDS:
            head = head[k + 1:]
            break
    changed = True
    while changed and head:
        changed = False
        word = head[0][0]
        if re.match(r"Q_[A-Z_]+$", word):
            if len(head) > 1 and head[1][0] == "(":
                close = _match_forward(head, 1, "(", ")")
                head = head[close + 1:]
            else:
                head = head[1:]
            changed = True
    return head


def _match_forward(tokens, start, open_tok, close_tok):
    """The index of the token closing the bracket at `start` (len(tokens) when it is not closed)."""
    depth = 0
    for k in range(start, len(tokens)):
        t = tokens[k][0]
        if t == open_tok:
            depth += 1
        elif t == close_tok:
            depth -= 1
            if depth == 0:
                return k
    return len(tokens)


def _without_templates(head):
    """The head without its `template <...>` prefixes (angle brackets matched)."""
    k = 0
    while k < len(head) and head[k][0] == "template" and k + 1 < len(head) and head[k + 1][0] == "<":
        k = _match_forward(head, k + 1, "<", ">") + 1
    return head[k:]


def _paren_groups(head):
    """(open, close) index pairs of the top-level parenthesis groups of a head."""
    groups = []
    depth = 0
    for k, (t, _) in enumerate(head):
        if t in "([":
            if depth == 0 and t == "(":
                opened = k
            depth += 1
        elif t in ")]":
            depth -= 1
            if depth == 0 and t == ")":
                groups.append((opened, k))
    return groups


def _is_declarator_tail(tail):
    """Whether the tokens between a parameter list's `)` and the `{` leave a function definition:
    qualifiers, noexcept(...)/throw(...), a trailing return type, or a constructor's initialiser
    list (`: m_a(a), m_b{b}`; its brace groups are one `{}` token each)."""
    k = 0
    while k < len(tail):
        t = tail[k][0]
        if t in _QUALIFIERS:
            if k + 1 < len(tail) and tail[k + 1][0] == "(" and t in ("noexcept", "throw"):
                k = _match_forward(tail, k + 1, "(", ")") + 1
            else:
                k += 1
            continue
        if t == "[" and k + 1 < len(tail) and tail[k + 1][0] == "[":  # an attribute
            k = _match_forward(tail, k, "[", "]") + 1
            continue
        if t == "->":
            return not any(x[0] in ("=", ";", ":") for x in tail[k + 1:])
        if t == ":":
            return _is_initialiser_list(tail[k + 1:])
        return False
    return True


def _is_initialiser_list(items):
    """Whether tokens are a constructor's member initialisers: `name(...)` / `name{}` / `Base<T>(...)`
    separated by commas (a trailing pack expansion `...` allowed)."""
    k = 0
    if not items:
        return False
    while k < len(items):
        # A (qualified, templated) name.
        start = k
        while k < len(items) and (re.match(r"[A-Za-z_]\w*$", items[k][0]) or items[k][0] == "::"):
            k += 1
            if k < len(items) and items[k][0] == "<":
                k = _match_forward(items, k, "<", ">") + 1
        if k == start or k >= len(items):
            return False
        if items[k][0] == "(":
            k = _match_forward(items, k, "(", ")") + 1
            if k > len(items):
                return False
        elif items[k][0] == "{}":
            k += 1
        else:
            return False
        if k < len(items) and items[k][0] == "...":
            k += 1
        if k < len(items):
            if items[k][0] != ",":
                return False
            k += 1
    return True


def _function_name(head, open_paren):
    """The name before the parameter list at `open_paren`: `ns::Class::name`, `~Class`,
    `operator()`, `operator==`, `operator bool`; None when there is no name (a lambda)."""
    k = open_paren - 1
    if k < 0:
        return None
    parts = []
    # operator(), operator[] and operator<symbols>.
    symbols = []
    j = k
    while j >= 0 and not re.match(r"\w", head[j][0]):
        symbols.append(head[j][0])
        j -= 1
    if j >= 0 and head[j][0] == "operator" and symbols:
        parts = ["operator" + "".join(reversed(symbols))]
        k = j - 1
    elif j >= 1 and head[j - 1][0] == "operator" and j == k:
        parts = ["operator " + head[j][0]]  # a conversion operator
        k = j - 2
    elif re.match(r"[A-Za-z_]\w*$", head[k][0]):
        parts = [head[k][0]]
        k -= 1
        if k >= 0 and head[k][0] == "~":
            parts[0] = "~" + parts[0]
            k -= 1
    else:
        return None
    while k >= 1 and head[k][0] == "::":
        k -= 1
        if head[k][0] == ">":  # Box<T>::Box: the template arguments are left out
            depth = 0
            while k >= 0:
                depth += {">": 1, "<": -1}.get(head[k][0], 0)
                k -= 1
                if depth == 0:
                    break
        if k < 0 or not re.match(r"[A-Za-z_]\w*$", head[k][0]):
            break
        parts.insert(0, head[k][0] + "::")
        k -= 1
    return "".join(parts)


def classify(head):
    """What a `{` at namespace or class scope opens, from the tokens before it since the last `;`,
    `{` or `}` of that scope: ("function", name, first_line), ("namespace",), ("class",) or
    ("other",) (an enum, an aggregate initialiser, ...)."""
    head = _strip_head(head)
    if not head:
        return ("other",)
    first_line = head[0][1]
    body = _without_templates(head)
    words = [t for t, _ in body]
    if not words:
        return ("other",)
    if words[0] == "namespace" or words[:2] == ["inline", "namespace"] or words == ["extern", '"', '"']:
        return ("namespace",)
    if "enum" in words:
        return ("other",)
    for open_paren, close_paren in _paren_groups(body):
        if not _is_declarator_tail(body[close_paren + 1:]):
            continue
        before = words[:open_paren]
        name = _function_name(body, open_paren)
        if name is None:
            # A lambda given to a variable: `const auto kF = [](...) {`.
            if "=" in before and before and before[-1] == "]":
                eq = len(before) - 1 - before[::-1].index("=")
                if eq > 0 and re.match(r"[A-Za-z_]\w*$", before[eq - 1]):
                    return ("function", before[eq - 1], first_line)
            return ("other",)
        if "=" in before and not any(w.startswith("operator") for w in [name]):
            return ("other",)  # `T x = f(a) {`: not a declarator
        return ("function", name, first_line)
    if any(w in _CLASS_WORDS for w in words) and "=" not in words and "(" not in words:
        return ("class",)
    return ("other",)


def functions(path):
    """(name, first_line, last_line) of every function defined in a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tokens = tokenize(blank_non_code(text))
    found = []
    # The open braces: "namespace" or "class" (a scope whose `{` are classified), "function",
    # "init" (a member's brace initialiser in a constructor's initialiser list), "other" (an enum,
    # an aggregate initialiser) or "block" (any brace inside one of the last three).
    stack = [("namespace", None)]
    head = []  # the tokens since the last `;`, `{` or `}` of the namespace or class scope
    saved = []  # the head of the scope around each open brace of a namespace or class scope
    for tok, line in tokens:
        if tok == "{":
            if stack[-1][0] not in ("namespace", "class"):
                stack.append(("block", None))
                continue
            saved.append(head)
            if _open_brackets(head) or _in_initialiser_list(head):
                stack.append(("init", None))  # the head goes on after its `}`
            else:
                what = classify(head)
                stack.append((what[0], what[1:] if what[0] == "function" else None))
            head = []
        elif tok == "}":
            if len(stack) == 1:
                raise BraceError("line %d: unmatched '}'" % line)
            closed, data = stack.pop()
            if closed == "block":
                continue
            if closed == "function":
                found.append((data[0], data[1], line))
            head = saved.pop()
            head = head + [("{}", line)] if closed == "init" else []
        elif stack[-1][0] in ("namespace", "class"):
            if tok == ";":
                head = []
            else:
                head.append((tok, line))
    if len(stack) != 1:
        raise BraceError("%d unclosed '{'" % (len(stack) - 1))
    return found


def _open_brackets(head):
    """Whether a head has a `(` or `[` not closed yet: a `{` there is inside an expression (a lambda
    or a braced value in a default argument, an initialiser or a macro's arguments)."""
    depth = 0
    for t, _ in head:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
    return depth > 0


def _in_initialiser_list(head):
    """Whether a `{` after this head is a member's brace initialiser in a constructor's
    initialiser list (`Foo() : m_a{`): the head is `...) qualifiers : items..., name`."""
    if not head or not re.match(r"[A-Za-z_]\w*$|>", head[-1][0]):
        return False
    body = _without_templates(_strip_head(head))
    for _, close_paren in reversed(_paren_groups(body)):
        tail = body[close_paren + 1:]
        colon = next((i for i, (t, _) in enumerate(tail) if t == ":"), None)
        if colon is None:
            continue
        if not _is_declarator_tail(tail[:colon]):
            continue
        items = tail[colon + 1:] + [("{}", 0)]
        return _is_initialiser_list(items)
    return False


def source_files(paths):
    """The *.cpp and *.h files of the given files and folders, sorted."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files.extend(os.path.join(root, n) for n in names if n.endswith(SOURCE_SUFFIXES))
        else:
            files.append(p)
    return sorted(files)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Report C++ functions longer than a limit.")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="most lines a function may have")
    parser.add_argument("--all", action="store_true", help="print every function and exit 0")
    parser.add_argument("paths", nargs="*", help="files or folders (default: core widgets app)")
    args = parser.parse_args(argv)
    paths = args.paths
    if not paths:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        paths = [os.path.relpath(os.path.join(root, d)) for d in DEFAULT_DIRS]
    rows = []
    status = 0
    for path in source_files(paths):
        try:
            for name, first, last in functions(path):
                rows.append((last - first + 1, path, first, name))
        except BraceError as e:
            print("function_lengths: cannot measure %s: %s" % (path, e), file=sys.stderr)
            status = 2
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    for length, path, first, name in rows:
        if args.all or length > args.limit:
            print("%s:%d: %s %d lines" % (path, first, name, length))
            if not args.all:
                status = status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
