#!/usr/bin/env python3
"""Regenerates Sources/PhotoMetaCore/Dates/GnomeShellNames.swift: the names GNOME Shell gives
screenshots and screencasts, in every language it ships, read from its message catalogues.

GNOME Shell names a screenshot `_('Screenshot From %s')` (47 and later; `Screenshot from %s`
before), `%s` being the local time as `%Y-%m-%d %H-%M-%S` (js/ui/screenshot.js), and a screen
recording `_('Screencast From %d %t')` (`Screencast from %d %t.webm` before 44), where the
screencast service (js/dbusServices/screencast/screencastService.js, `_generateFilePath`)
replaces `%d` with `%Y-%m-%d`, `%t` with `%H-%M-%S`, `%%` with `%`, and drops any other
escape. The translations are data: this script reads them from the `.mo` files of Debian's
`gnome-shell-common` packages with `msgunfmt`, so no language is typed by hand.

Requirements (regeneration only, not the build): python3, dpkg-deb (dpkg), msgunfmt (gettext).

Usage:
    Scripts/make_gnome_shell_names.py PACKAGE.deb... > Sources/PhotoMetaCore/Dates/GnomeShellNames.swift

The committed table came from these two packages (`apt-get download gnome-shell-common` on
bookworm gives the first; the second is trixie's, fetched with apt and a private sources list):

    mkdir -p /tmp/trixie/lists/partial /tmp/trixie/cache/archives/partial
    echo 'deb http://deb.debian.org/debian trixie main' > /tmp/trixie/sources.list
    A="-o Dir::Etc::SourceList=/tmp/trixie/sources.list -o Dir::Etc::SourceParts=/dev/null
       -o Dir::State::Lists=/tmp/trixie/lists -o Dir::Cache=/tmp/trixie/cache"
    apt-get $A update && apt-get $A download gnome-shell-common

Each translation becomes one pattern. Patterns that cannot name a date (a placeholder missing or
unknown, a `/` that would make a folder) are listed in the generated file's comment, not used.
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile

MSGIDS = {
    "Screenshot from %s": "screenshot",
    "Screenshot From %s": "screenshot",
    "Screencast from %d %t.webm": "screencast",
    "Screencast From %d %t": "screencast",
}


def unquote(s):
    """A PO string literal's text (msgunfmt --no-wrap writes one line per string)."""
    out, i = [], 0
    body = s[1:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def entries(po_text):
    """(msgid, msgstr) pairs of a PO file written by msgunfmt --no-wrap."""
    msgid = None
    for line in po_text.splitlines():
        if line.startswith("msgid "):
            msgid = unquote(line[6:])
        elif line.startswith("msgstr ") and msgid is not None:
            yield msgid, unquote(line[7:])
            msgid = None


def usable(kind, pattern):
    """None when the pattern names a date the way GNOME expands it, else why not."""
    if "/" in pattern:
        return "a '/' would make a folder"
    escapes = re.findall(r"%(.)", pattern.replace("%%", ""))
    wanted = ["s"] if kind == "screenshot" else ["d", "t"]
    if sorted(escapes) != sorted(wanted):
        return "placeholders %s, not %s" % ("".join(escapes) or "none", "".join(wanted))
    return None


def read_package(deb):
    """(version, {(kind, pattern): set(languages)}, [(lang, pattern, reason)])."""
    version = subprocess.run(
        ["dpkg-deb", "-f", deb, "Version"], check=True, capture_output=True, text=True
    ).stdout.strip()
    found, refused = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        root = os.path.join(tmp, "usr/share/locale")
        for lang in sorted(os.listdir(root)):
            mo = os.path.join(root, lang, "LC_MESSAGES", "gnome-shell.mo")
            if not os.path.exists(mo):
                continue
            po = subprocess.run(
                ["msgunfmt", "--no-wrap", mo], check=True, capture_output=True, text=True
            ).stdout
            for msgid, msgstr in entries(po):
                if msgid in MSGIDS and msgstr:
                    add(found, refused, MSGIDS[msgid], msgstr, lang)
        # Untranslated languages (and C) get the English text itself.
        for msgid, kind in MSGIDS.items():
            add(found, refused, kind, msgid, "C")
    return version, found, refused


def add(found, refused, kind, pattern, lang):
    # GNOME 43 put the extension into the screencast template; the name's extension is not
    # matched, so it is dropped here.
    if kind == "screencast" and pattern.endswith(".webm"):
        pattern = pattern[: -len(".webm")]
    why = usable(kind, pattern)
    if why:
        refused.append((lang, pattern, why))
        return
    found.setdefault((kind, pattern), set()).add(lang)


def swift_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(debs):
    table, refused, provenance = {}, [], []
    for deb in debs:
        version, found, bad = read_package(deb)
        with open(deb, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        provenance.append("gnome-shell-common %s (%s, sha256 %s)" % (version, os.path.basename(deb), digest))
        for key, langs in found.items():
            table.setdefault(key, set()).update(langs)
        refused += [(version,) + r for r in bad]
    print("// Generated by Scripts/make_gnome_shell_names.py from the message catalogues of:")
    for p in provenance:
        print("//   " + p)
    print("// Do not edit: run the script (its docstring says how the packages were fetched).")
    print("//")
    print("// Translations that name no date GNOME can expand (not used):")
    for version, lang, pattern, why in sorted(set(refused)):
        print("//   %s %s %s: %s" % (version, lang, swift_string(pattern), why))
    print()
    print("extension GnomeShellNames {")
    print("    /// (kind, pattern, languages): `%s` is `YYYY-MM-DD hh-mm-ss`, `%d` `YYYY-MM-DD`,")
    print("    /// `%t` `hh-mm-ss`. Sorted by kind, then pattern.")
    print("    static let table: [Entry] = [")
    for (kind, pattern), langs in sorted(table.items()):
        print("        Entry(.%s, %s, %s)," % (kind, swift_string(pattern), swift_string(" ".join(sorted(langs)))))
    print("    ]")
    print("}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
