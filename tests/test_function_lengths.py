#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of scripts/function_lengths.py and check 4 of scripts/check_source.sh (standard
library unittest; issue 26: no function over 150 lines).

A hand-written function padded to 150 lines passes and the same function with one more line
fails, both through the checker and through check_source.sh run on a copy of the tree's layout.
The function holds what could mislead a brace count: braces in comments, in string, character and
raw string literals and in a preprocessor line, digit separators, lambdas, a local class and a
braced initialiser. Then one case per kind of definition the scan must recognise (constructors
with initialiser lists, operators, in-class members, templates, Qt macros) and the braces it must
not take for a function (enums, aggregate initialisers, lambdas in default arguments).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import function_lengths  # noqa: E402

# The first 23 lines of the fixture function; lines of `  sum += n;` pad it to the wanted length.
TRICKY_HEAD = r'''int longFunction(const std::vector<int>& values, int limit) {
  // A comment with braces: { { {
  /* and a block comment: } } */
  const char* text = "a string with { braces } and \" an escaped quote {";
  const char open = '{';
  const char close = '}';
  const char quote = '\'';
  const char* raw = R"json({"a": {"b": "}"}})json";
  const char* raw2 = R"(})";
  long big = 1'000'000 + 0xFF'FF;
#define NPUSCOPE_TEST_BRACE {
  auto lambda = [&](int v) {
    return v > limit ? v : 0;
  };
  struct Local {
    int value() const { return 1; }
  };
  std::vector<int> braced{1, 2, 3};
  int sum = 0;
  for (int v : values) {
    sum += lambda(v) + Local{}.value();
  }
  int n = static_cast<int>(braced.size() + big) + open + close + quote + text[0] + raw[0] + raw2[0];
'''
TRICKY_TAIL = "  return sum;\n}\n"


def fixture_function(lines):
    """The hand-written fixture function, padded to `lines` lines."""
    head_lines = TRICKY_HEAD.count("\n")
    tail_lines = TRICKY_TAIL.count("\n")
    padding = lines - head_lines - tail_lines
    assert padding >= 0
    return TRICKY_HEAD + "  sum += n;\n" * padding + TRICKY_TAIL


def fixture_file(lines):
    """A source file whose one long function (at line 5) has `lines` lines, among short ones."""
    return ("#include <vector>\n"
            "\n"
            "namespace fixture {\n"
            "\n"
            + fixture_function(lines)
            + "\n"
            "int shortFunction() { return 2; }\n"
            "\n"
            "}  // namespace fixture\n")


def measure(source):
    """{name: length} of the functions of a source text."""
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(textwrap.dedent(source))
    try:
        return {name: last - first + 1 for name, first, last in function_lengths.functions(f.name)}
    finally:
        os.unlink(f.name)


class LimitTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def run_checker(self, lines):
        path = os.path.join(self.dir, "fixture.cpp")
        with open(path, "w") as f:
            f.write(fixture_file(lines))
        return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "function_lengths.py"), path],
                              capture_output=True, text=True), path

    def test_150_lines_pass(self):
        result, _ = self.run_checker(150)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout, "")

    def test_151_lines_fail(self):
        result, path = self.run_checker(151)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "%s:5: longFunction 151 lines\n" % path)

    def test_limit_option(self):
        path = os.path.join(self.dir, "fixture.cpp")
        with open(path, "w") as f:
            f.write(fixture_file(40))
        script = os.path.join(ROOT, "scripts", "function_lengths.py")
        self.assertEqual(subprocess.run([sys.executable, script, "--limit", "40", path]).returncode, 0)
        self.assertEqual(subprocess.run([sys.executable, script, "--limit", "39", path],
                                        capture_output=True).returncode, 1)

    def check_source(self, lines):
        """check_source.sh run on a tree of its layout whose core/ holds the fixture."""
        tree = os.path.join(self.dir, "tree")
        for d in ("scripts", "core", "app", "widgets", "tests", "resources/translations"):
            os.makedirs(os.path.join(tree, d), exist_ok=True)
        for script in ("check_source.sh", "function_lengths.py"):
            shutil.copy(os.path.join(ROOT, "scripts", script), os.path.join(tree, "scripts"))
        for cmake in ("app/CMakeLists.txt", "tests/CMakeLists.txt"):
            open(os.path.join(tree, cmake), "w").close()
        with open(os.path.join(tree, "resources/translations/npuscope_zh_CN.ts"), "w") as f:
            f.write("<TS></TS>\n")
        with open(os.path.join(tree, "core", "fixture.cpp"), "w") as f:
            f.write(fixture_file(lines))
        return subprocess.run(["bash", os.path.join(tree, "scripts", "check_source.sh")],
                              capture_output=True, text=True)

    def test_check_source_passes_on_150_lines(self):
        result = self.check_source(150)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_check_source_fails_on_151_lines(self):
        result = self.check_source(151)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("core/fixture.cpp:5: longFunction 151 lines", result.stdout)


class RecognitionTest(unittest.TestCase):
    def test_tricky_function_is_one_function(self):
        self.assertEqual(measure(fixture_file(60)), {"longFunction": 60, "shortFunction": 1})

    def test_constructors_destructors_and_initialiser_lists(self):
        self.assertEqual(measure('''
            Panel::Panel(QWidget* parent)
                : QWidget(parent), m_a{1}, m_b(2), m_list{{1, 2}, {3}} {
              setup();
            }
            Panel::~Panel() {
            }
            template <class T>
            Box<T>::Box(T v) noexcept : Base<T>(v) {
              x();
            }
            '''), {"Panel::Panel": 4, "Panel::~Panel": 2, "Box::Box": 4})

    def test_operators_and_qualifiers(self):
        self.assertEqual(measure('''
            bool operator==(const A& a, const B& b) { return a.x == b.x; }
            struct Less {
              bool operator()(int a, int b) const noexcept { return a < b; }
              explicit operator bool() const { return true; }
              int& operator[](int i) & { return m[i]; }
            };
            auto trailing(int a) -> std::vector<int> {
              return {a};
            }
            '''), {"operator==": 1, "operator()": 1, "operator bool": 1, "operator[]": 1, "trailing": 3})

    def test_class_members_and_qt_macros(self):
        self.assertEqual(measure('''
            namespace a { namespace b {
            class Widget : public QWidget {
              Q_OBJECT
              Q_PROPERTY(int value READ value)
             public:
              int value() const { return 1; }
             public slots:
              void refresh() {
                update();
              }
             signals:
              void changed();
             private:
              struct Inner {
                void f() {}
              };
              int m_x = 0;
              std::vector<int> m_v{1, 2};
            };
            }  }
            '''), {"value": 1, "refresh": 3, "f": 1})

    def test_braces_that_are_not_functions(self):
        self.assertEqual(measure('''
            enum class Kind { A, B };
            const int kTable[] = {1, 2, 3};
            const std::map<int, int> kMap = {{1, 2}, {3, 4}};
            struct Options { int a = 0; };
            void withDefault(Options o = {}, std::function<void()> f = [] {}) {
              f();
            }
            extern "C" {
            int cFunction(void) { return 0; }
            }
            const auto kHelper = [](int a) {
              return a + 1;
            };
            static const Options kOptions{};
            QObject::connect(a, &A::b, [] { x(); });
            '''), {"withDefault": 3, "cFunction": 1, "kHelper": 3})

    def test_lambdas_belong_to_their_function(self):
        self.assertEqual(measure('''
            void outer() {
              auto f = [](int a) {
                return a;
              };
              std::sort(v.begin(), v.end(), [](int a, int b) { return a < b; });
            }
            '''), {"outer": 6})

    def test_unmatched_brace_is_an_error(self):
        with self.assertRaises(function_lengths.BraceError):
            measure("void f() {\n")


if __name__ == "__main__":
    unittest.main()
