#!/usr/bin/env python3
"""The layout rules of docs/architecture.md ("Rules the code keeps"), checked by `make lint`.

1. Each C module is imported from its one home (HOMES), and each C library's headers are
   included only by its module (HEADERS).
2. libc, processes and file operations only in Sources/PhotoMetaSystem (LIBC_CALLS,
   FOUNDATION_SYSTEM); Foundation's values (Date, Data, JSONEncoder, ProcessInfo's environment
   and processor count) stay usable everywhere.
3. No Swift file in Sources over MAX_FILE_LINES lines and no `func`/`init` over MAX_FUNC_LINES
   lines (from its keyword to its closing brace).

Exceptions are lines of Scripts/layout-allow.txt, each with a reason; an exception that no longer
matches anything is itself reported, so the file shrinks as the code is split. Violations are
printed as `path:line: message`; the exit status is 1 when there is one. Python 3 standard library
only. `--self-test` runs the checker on small samples first.
"""

import os
import re
import sys

MAX_FILE_LINES = 350
MAX_FUNC_LINES = 80

# C module -> the files (or folders, ending in "/") allowed to import it in Swift.
HOMES = {
    "CExif": ["Sources/PhotoMetaCore/EXIF/ExifDecoder.swift"],
    "CSQLite": ["Sources/PhotoMetaStore/SQLiteDatabase.swift"],
    "CZlib": ["Sources/PhotoMetaCore/Containers/Inflater.swift"],
    "CBrotli": ["Sources/PhotoMetaCore/Containers/BrotliDecoder.swift"],
    "CVips": ["Sources/PhotoMetaThumbnails/VipsCodec.swift"],
    "CLibVips": ["Sources/PhotoMetaThumbnails/VipsCodec.swift"],
    "CGLibNames": ["Sources/PhotoMetaThumbnailCache/ThumbnailCache.swift"],
    "CGLib": [],  # only through CGLibNames
    "CExifTagNames": [],  # linked, never imported: libexif's calls reach it
    "CStatx": ["Sources/PhotoMetaSystem/"],
    "CSpawn": ["Sources/PhotoMetaSystem/"],
    "CSignals": ["Sources/PhotoMetaSystem/TerminationSignals.swift"],
    "CSandbox": ["Sources/PhotoMetaSystem/Sandbox.swift", "Sources/PhotoMetaSystem/SandboxProbe.swift"],
}

# A C library's header -> the C module folders that may include it.
HEADERS = {
    "libexif/": ["Sources/CExif/", "Sources/CExifTagNames/"],
    "sqlite3.h": ["Sources/CSQLite/"],
    "zlib.h": ["Sources/CZlib/"],
    "brotli/": ["Sources/CBrotli/"],
    "vips/": ["Sources/CLibVips/", "Sources/CVips/"],
    "libffmpegthumbnailer/": ["Sources/CVips/"],
    "lcms2.h": ["Sources/CVips/"],
    "glib.h": ["Sources/CGLib/", "Sources/CGLibNames/"],
    "linux/landlock.h": ["Sources/CSandbox/"],
    "linux/seccomp.h": ["Sources/CSandbox/"],
    "linux/filter.h": ["Sources/CSandbox/"],
}

SYSTEM_HOME = "Sources/PhotoMetaSystem/"
EXECUTABLES = ("Sources/photometa/", "Sources/photometa-thumbnailer/")
LIBC_MODULES = {"Glibc", "Musl", "Darwin", "SwiftGlibc"}

# libc functions that are calls into the system (Foundation re-exports Glibc, so no import is
# needed to reach them). Matched as a bare call `name(`, not `.name(` and not `func name(`.
LIBC_CALLS = set(
    """
    open openat close read write pread pwrite lseek fsync fdatasync ftruncate unlink unlinkat rename
    renameat mkdir mkdirat rmdir chmod fchmod chown fchown access faccessat stat lstat fstat fstatat
    statx opendir fdopendir readdir closedir rewinddir realpath readlink readlinkat symlink link dup
    dup2 dup3 pipe pipe2 poll select fcntl ioctl flock getenv setenv unsetenv getpid getppid getuid
    geteuid getgid kill raise signal sigaction sigprocmask fork vfork execv execve execvp
    posix_spawn posix_spawnp waitpid wait isatty strlen strnlen strcmp strncmp strdup strerror
    memcpy memmove memcmp memset malloc calloc realloc free mmap munmap usleep nanosleep
    clock_gettime gettimeofday time localtime_r gmtime_r mktime tzset inotify_init inotify_init1
    inotify_add_watch inotify_rm_watch sysconf printf fprintf snprintf vsnprintf puts fputs fopen
    fclose fread fwrite fflush exit _exit abort atexit
    """.split()
)
# `exit` ends the process: the executables' entry points may call it.
EXECUTABLE_CALLS = {"exit"}

# Foundation types and initialisers that touch files or start processes.
FOUNDATION_SYSTEM = [
    (re.compile(r"\bFileManager\b"), "FileManager"),
    (re.compile(r"\bFileHandle\b"), "FileHandle"),
    (re.compile(r"(?<![\w.])Pipe\s*\("), "Pipe"),
    (re.compile(r"\bFoundation\.Process\b|(?<![\w.])Process\s*\("), "Process"),
    (re.compile(r"\bcontentsOfFile:|\b(?:Data|String)\s*\(\s*contentsOf:"), "contentsOf"),
    (re.compile(r"\btoFile:|\batomically:"), "writeToFile"),
]

ALLOW_PATH = os.path.join("Scripts", "layout-allow.txt")


def strip_swift(text):
    """The text with comments and the contents of string literals replaced by spaces, newlines
    kept, so line numbers and code braces survive and braces inside text do not count.
    Interpolations (`\\( ... )`) are kept as code."""
    out = []
    i, n = 0, len(text)
    # Each entry is the context we are in: ("code", paren depth of an interpolation or None),
    # ("str", quote, raw hashes).
    stack = [("code", None)]

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        top = stack[-1]
        c = text[i]
        if top[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(blank(text[i:j]))
                i = j
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append(blank(text[i:j]))
                i = j
            elif c == "#" or c == '"':
                m = re.match(r'(#*)("""|")', text[i:])
                if not m:
                    out.append(c)
                    i += 1
                    continue
                out.append(m.group(0))
                stack.append(("str", m.group(2), m.group(1)))
                i += len(m.group(0))
            else:
                if top[1] is not None:
                    if c == "(":
                        stack[-1] = ("code", top[1] + 1)
                    elif c == ")":
                        if top[1] == 0:
                            stack.pop()
                            out.append(c)
                            i += 1
                            continue
                        stack[-1] = ("code", top[1] - 1)
                out.append(c)
                i += 1
        else:
            _, quote, hashes = top
            if c == "\\" and text.startswith(hashes, i + 1):
                k = i + 1 + len(hashes)
                if k < n and text[k] == "(":
                    out.append(" " * (k - i) + "(")
                    stack.append(("code", 0))
                    i = k + 1
                else:
                    out.append(blank(text[i : k + 1]))
                    i = k + 1
            elif text.startswith(quote + hashes, i):
                out.append(quote + hashes)
                stack.pop()
                i += len(quote) + len(hashes)
            elif c == "\n" and quote == '"':
                stack.pop()  # an unterminated one-line string: give up on it
                out.append(c)
                i += 1
            else:
                out.append(blank(c))
                i += 1
    return "".join(out)


FUNC_START = re.compile(r"(?<![\w.])(?:func\s+(?P<name>[^\s(<]+)|(?P<init>init)[?!]?\s*[(<])")
SIGNATURE_GOES_ON = ("->", "throws", "rethrows", "async", "where", "{", ",", "&", ")", "]")


def functions(code):
    """(name, first line, last line) of every func/init with a body in stripped Swift code."""
    found = []
    line_of = _line_index(code)
    for m in FUNC_START.finditer(code):
        name = m.group("name") or "init"
        i, depth, n = m.end(), 0, len(code)
        body = None
        while i < n:
            c = code[i]
            if c in "([<":
                depth += 1
            elif c in ")]>":
                if c == ">" and code[i - 1] == "-":
                    pass  # the arrow of a return type
                else:
                    depth = max(0, depth - 1)
            elif c == "{" and depth == 0:
                body = i
                break
            elif c == "}" and depth == 0:
                break  # a requirement without a body, at the end of its protocol
            elif c == "\n" and depth == 0:
                rest = code[i:].lstrip()
                if not rest.startswith(SIGNATURE_GOES_ON):
                    break
            i += 1
        if body is None:
            continue
        end = _matching_brace(code, body)
        if end is not None:
            found.append((name, line_of(m.start()), line_of(end)))
    return found


def _matching_brace(code, start):
    depth = 0
    for j in range(start, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return None


def _line_index(text):
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(offset):
        lo, hi = 0, len(starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    return line_of


IMPORT = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:internal|public|package|private|fileprivate)\s+)?import\s+"
    r"(?:(?:struct|class|enum|func|var|let|typealias|protocol)\s+)?(\w+)",
    re.M,
)
CALL = re.compile(r"(?<![\w.])(?<!func )(?<!func  )([A-Za-z_]\w*)\s*\(")


def _has_labels(code, start):
    """Whether the call whose arguments start at `start` (after its parenthesis) labels one."""
    depth, i, arg_start = 0, start, start
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        if depth == 0 and (c == "," or i == start):
            arg_start = i + 1 if c == "," else i
            if re.match(r"\s*\w+\s*:(?!:)", code[arg_start:]):
                return True
        i += 1
    return False


def _home_allows(path, homes):
    return any(path == h or (h.endswith("/") and path.startswith(h)) for h in homes)


def check_swift(path, text):
    """Findings for one Swift file: (line, rule, name, message)."""
    code = strip_swift(text)
    line_of = _line_index(code)
    findings = []
    system = path.startswith(SYSTEM_HOME)
    for m in IMPORT.finditer(code):
        module = m.group(1)
        line = line_of(m.start(1))
        if module in HOMES and not _home_allows(path, HOMES[module]):
            homes = ", ".join(HOMES[module]) or "no Swift file (it is reached through another C module)"
            findings.append((line, "import", module, "imports %s, whose one home is %s" % (module, homes)))
        if module in LIBC_MODULES and not system:
            findings.append((line, "libc", module, "imports %s outside %s" % (module, SYSTEM_HOME)))
    if not system:
        executable = path.startswith(EXECUTABLES)
        for m in CALL.finditer(code):
            name = m.group(1)
            if name in LIBC_CALLS and not (executable and name in EXECUTABLE_CALLS):
                if re.search(r"\bfunc\s+$", code[max(0, m.start() - 12) : m.start()]):
                    continue
                if _has_labels(code, m.end()):
                    continue  # a Swift method of the same name (`read(at:count:)`); C has no labels
                findings.append(
                    (line_of(m.start(1)), "libc", name, "calls %s() outside %s" % (name, SYSTEM_HOME))
                )
        for pattern, name in FOUNDATION_SYSTEM:
            for m in pattern.finditer(code):
                findings.append(
                    (line_of(m.start()), "libc", name, "uses Foundation's %s outside %s" % (name, SYSTEM_HOME))
                )
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_FILE_LINES:
        findings.append((1, "length", "", "%d lines (at most %d)" % (lines, MAX_FILE_LINES)))
    for name, first, last in functions(code):
        if last - first + 1 > MAX_FUNC_LINES:
            findings.append(
                (first, "length", name, "%s is %d lines (at most %d)" % (name, last - first + 1, MAX_FUNC_LINES))
            )
    return findings


INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def check_c(path, text):
    findings = []
    line_of = _line_index(text)
    for m in INCLUDE.finditer(text):
        header = m.group(1)
        for prefix, homes in HEADERS.items():
            if header.startswith(prefix) and not _home_allows(path, homes):
                findings.append(
                    (line_of(m.start(1)), "import", header, "includes <%s>, whose home is %s" % (header, ", ".join(homes)))
                )
    lines = text.count("\n")
    if lines > MAX_FILE_LINES:
        findings.append((1, "length", "", "%d lines (at most %d)" % (lines, MAX_FILE_LINES)))
    return findings


def read_allow(path, shown):
    """{(rule, path, name): (line number, reason)}; a line is `RULE PATH [NAME]: reason`."""
    allow, problems = {}, []
    if not os.path.exists(path):
        return allow, problems
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            head, sep, reason = line.partition(":")
            words = head.split()
            if not sep or not reason.strip() or len(words) not in (2, 3) or words[0] not in ("import", "libc", "length"):
                problems.append("%s:%d: expected `RULE PATH [NAME]: reason` (RULE: import, libc, length)" % (shown, number))
                continue
            key = (words[0], words[1], words[2] if len(words) == 3 else "")
            allow[key] = (number, reason.strip())
    return allow, problems


def run(root, allow_path):
    allow, problems = read_allow(os.path.join(root, allow_path), allow_path)
    used = set()
    report = list(problems)
    for folder, dirs, files in os.walk(os.path.join(root, "Sources")):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if name.endswith(".swift"):
                checker = check_swift
            elif name.endswith((".c", ".h")):
                checker = check_c
            else:
                continue
            with open(full, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line, rule, what, message in checker(rel, text):
                key = (rule, rel, what)
                if key in allow:
                    used.add(key)
                    continue
                report.append("%s:%d: %s" % (rel, line, message))
    for key, (number, _) in sorted(allow.items(), key=lambda kv: kv[1][0]):
        if key not in used:
            report.append(
                "%s:%d: the exception `%s` matches nothing any more: remove it" % (allow_path, number, " ".join(k for k in key if k))
            )
    return report


def self_test():
    """The checker on small samples: braces in text do not count, requirements have no body,
    signatures may span lines, calls and imports are found where they are not allowed."""
    sample = '''import Foundation
internal import CSQLite
protocol P {
    func f() -> Int
}
struct S {
    func g(_ x: Int = { 1 }()) throws(E)
        -> Int
    {
        let s = "}}} \\(x.map { "{" })" + #"}"# + """
            }
            """
        // }
        /* { nested /* } */ */
        return strlen(s) + Int(exit(0)) + read(at: 0, count: 1)
    }
    init?(n: Int) { self.n = n }
    func strlen(_ s: String) -> Int { s.count }
}
'''
    code = strip_swift(sample)
    assert code.count("\n") == sample.count("\n"), "lines kept"
    fs = functions(code)
    assert [f[0] for f in fs] == ["g", "init", "strlen"], fs
    assert fs[0][1:] == (7, 16), fs[0]
    found = {(rule, name) for _, rule, name, _ in check_swift("Sources/PhotoMeta/X.swift", sample)}
    assert ("import", "CSQLite") in found and ("libc", "strlen") in found and ("libc", "exit") in found, found
    assert not any(r == "length" for r, _ in found), found
    assert not check_swift("Sources/PhotoMetaStore/SQLiteDatabase.swift", "internal import CSQLite\n")
    exe = {(r, n) for _, r, n, _ in check_swift("Sources/photometa/M.swift", "exit(0)\nlet p = Process()\n")}
    assert exe == {("libc", "Process")}, exe
    assert not check_swift("Sources/PhotoMetaSystem/M.swift", "import Glibc\nlet n = strlen(p)\n")
    long = "func long() {\n" + "    _ = 1\n" * MAX_FUNC_LINES + "}\n"
    assert [(r, n) for _, r, n, _ in check_swift("Sources/A/B.swift", long)] == [("length", "long")]
    assert check_c("Sources/CVips/x.c", "#include <vips/vips.h>\n") == []
    assert check_c("Sources/CSpawn/x.c", "#include <sqlite3.h>\n")[0][1] == "import"


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--self-test" in argv:
        self_test()
    report = run(root, ALLOW_PATH)
    for line in report:
        print(line)
    if report:
        print("check_layout: %d problem(s); rules in docs/architecture.md, exceptions in %s" % (len(report), ALLOW_PATH))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
