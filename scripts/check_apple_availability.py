#!/usr/bin/env python3
"""Refuses, in the Swift files an Apple platform compiles of the test API, what an Xcode build would
reject there and no Linux build sees: APIs introduced after the package's declared minimums
(Package.swift `platforms:`), and Linux-only spellings outside a Linux-only branch.

No Mac builds this package in CI; this is the check that runs instead. It reads:

- the minimums from Package.swift (`.iOS(.v15)`, `.macOS(.v14)`, `.tvOS(.v15)`);
- the files: by default the build closures of the SnapdiffTesting product for iOS, tvOS and
  macOS as SwiftPM resolves the manifest (the engine, SnapdiffCore, is in the macOS closure
  only), each file checked for the platforms whose closure holds it; or, with `--files`, the
  given files for every platform (what the tests feed it);
- `#if` conditions (`os(...)`, `canImport(...)`, `!`, `&&`, `||`, the package's defines), so a
  line is checked only for the platforms that compile it;
- `@available(...)` and `if #available(...)` scopes (their braces), whose versions count as the
  minimums inside them.

Each API of APPLE_APIS names its introduction versions and the Apple documentation page they come
from (checked against developer.apple.com's documentation JSON). A finding prints
`file:line: API is iOS 16 / macOS 13 / tvOS 16, later than the minimum iOS 15 (doc)`.

Exit 0 when nothing is found, 1 when something is, 2 when the manifest cannot be read.

Limits, on purpose: it reads text, not types. A collection-separator `split` is caught when its
separator is a string literal of more than one character; one passed in a variable is not.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCT = "SnapdiffTesting"
APPLE = ("ios", "tvos", "macos")
ALL = APPLE + ("linux",)
DOCS = "https://developer.apple.com/documentation/"


def api(name, pattern, ios, macos, tvos, doc, literal=False):
    """An Apple API: the regular expression that finds a use, its introduction versions."""
    return {"name": name, "pattern": re.compile(pattern), "since": {"ios": ios, "macos": macos, "tvos": tvos},
            "doc": DOCS + doc, "literal": literal}


# The APIs newer than iOS 15 / macOS 13 that Linux compiles without a word, with the versions
# Apple's documentation gives (its "availability" block) and the page it gives them on.
APPLE_APIS = [
    api("String(validating:as:)", r"\bString\s*\(\s*validating\s*:|\binit\s*\(\s*validating\s*:",
        (18, 0), (15, 0), (18, 0), "swift/string/init(validating:as:)-84qr9"),
    api("split(separator:) with a separator of several characters (a Collection)",
        r"\.split\s*\(\s*separator\s*:\s*\"(?P<separator>(?:[^\"\\]|\\.){2,}?)\"",
        (16, 0), (13, 0), (16, 0), "swift/collection/split(separator:maxsplits:omittingemptysubsequences:)-9esbr",
        literal=True),
    api("URL(filePath:)", r"\bURL\s*\(\s*filePath\s*:", (16, 0), (13, 0), (16, 0),
        "foundation/url/init(filepath:directoryhint:relativeto:)"),
    api("URL.path(percentEncoded:)", r"\.path\s*\(\s*percentEncoded\s*:", (16, 0), (13, 0), (16, 0),
        "foundation/url/path(percentencoded:)"),
    api("URL.appending(path:) / appending(component(s):)", r"\.appending\s*\(\s*(path|component|components)\s*:",
        (16, 0), (13, 0), (16, 0), "foundation/url/appending(path:directoryhint:)"),
    api("URL.temporaryDirectory / homeDirectory / documentsDirectory / cachesDirectory",
        r"\bURL\s*\.\s*(temporaryDirectory|homeDirectory|documentsDirectory|cachesDirectory)\b",
        (16, 0), (13, 0), (16, 0), "foundation/url/temporarydirectory"),
    api("Regex", r"\bRegex\s*[<(]|\btry\s+Regex\b|#/|\.(wholeMatch|prefixMatch|firstMatch|matches)\s*\(\s*of\s*:",
        (16, 0), (13, 0), (16, 0), "swift/regex"),
    api("ranges(of:) / firstRange(of:) / replacing(_:with:) / trimmingPrefix(_:) (string processing)",
        r"\.(ranges|firstRange)\s*\(\s*of\s*:|\.replacing\s*\(|\.trimmingPrefix\s*\(",
        (16, 0), (13, 0), (16, 0), "swift/collection/ranges(of:)"),
    api("Duration", r"\bDuration\b",
        (16, 0), (13, 0), (16, 0), "swift/duration"),
    api("Clock / ContinuousClock / SuspendingClock", r"\b(ContinuousClock|SuspendingClock|any\s+Clock|some\s+Clock)\b",
        (16, 0), (13, 0), (16, 0), "swift/continuousclock"),
    api("Task.sleep(for:)", r"\bTask\s*\.\s*sleep\s*\(\s*(for|until)\s*:", (16, 0), (13, 0), (16, 0),
        "swift/task/sleep(for:tolerance:clock:)"),
    api("formatted(…) (Date, numbers)", r"\.formatted\s*\(", (15, 0), (12, 0), (15, 0),
        "foundation/date/formatted()"),
]

# Spellings that exist on Linux only: in a file an Apple platform compiles, they must sit in a
# branch Apple platforms skip (`#if canImport(Glibc)`, `#if os(Linux)`, `#else` of
# `#if canImport(Darwin)`).
LINUX_ONLY = [
    ("stat's st_mtim / st_ctim / st_atim (Darwin: st_mtimespec / st_ctimespec / st_atimespec)",
     re.compile(r"\bst_[mca]tim\b")),
    ("import Glibc / Musl (Darwin: import Darwin)", re.compile(r"^\s*import\s+(Glibc|Musl)\b")),
    ("import FoundationNetworking (URLSession is in Foundation on Apple platforms)",
     re.compile(r"^\s*import\s+FoundationNetworking\b")),
    ("Glibc. / Musl. qualified names", re.compile(r"\b(Glibc|Musl)\s*\.")),
    ("SOCK_STREAM.rawValue / SOCK_DGRAM.rawValue (an enum on Glibc, an Int32 on Darwin)",
     re.compile(r"\bSOCK_(STREAM|DGRAM)\s*\.\s*rawValue\b")),
    ("epoll / inotify / sendfile64 / get_nprocs / sched_getaffinity / mallinfo (Linux system calls)",
     re.compile(r"\b(epoll_\w+|inotify_\w+|sendfile64|get_nprocs|sched_getaffinity|mallinfo2?)\s*\(")),
]

# What the package's `#if` flags mean per platform (Package.swift).
DEFINES = {
    "SNAPDIFF_ENGINE": {"linux", "macos"},
    "SNAPDIFF_XCUI_SHIM": set(),
    "SNAPDIFF_XCUI_SHIM_TARGET": set(),
    "DEBUG": set(ALL),
}
MODULES = {
    "Darwin": set(APPLE), "Glibc": {"linux"}, "Musl": set(), "FoundationNetworking": {"linux"},
    "FoundationEssentials": {"linux"}, "UIKit": {"ios", "tvos"}, "AppKit": {"macos"}, "WinSDK": set(),
}


def version(text):
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (2 - len(parts)))[:2]


def shown(v):
    return f"{v[0]}" if v[1] == 0 else f"{v[0]}.{v[1]}"


def minimums():
    """The declared minimums from Package.swift's `platforms:`."""
    text = open(os.path.join(ROOT, "Package.swift")).read()
    found = {}
    for platform, major in re.findall(r"\.(iOS|macOS|tvOS)\(\.v(\d+(?:_\d+)?)\)", text):
        found[platform.lower()] = version(major.replace("_", "."))
    missing = [p for p in APPLE if p not in found]
    if missing:
        raise SystemExit(f"check_apple_availability: Package.swift declares no minimum for {', '.join(missing)}")
    return found


def closures():
    """{file: platforms whose build closure of the test API holds it}, from the manifest."""
    environment = {k: v for k, v in os.environ.items() if k != "SNAPDIFF_TEST_API_ONLY"}
    with tempfile.TemporaryDirectory() as scratch:
        try:
            dump = subprocess.run(["swift", "package", "--scratch-path", scratch, "dump-package"], cwd=ROOT,
                                  check=True, capture_output=True, text=True, env=environment).stdout
            manifest = json.loads(dump)
        except (subprocess.CalledProcessError, json.JSONDecodeError) as error:
            print(f"check_apple_availability: cannot read the manifest: {error}", file=sys.stderr)
            sys.exit(2)
    targets = {target["name"]: target for target in manifest["targets"]}
    product = next(p for p in manifest["products"] if p["name"] == PRODUCT)
    files = {}
    for platform in APPLE:
        seen, pending = set(), list(product["targets"])
        while pending:
            name = pending.pop()
            if name in seen or name not in targets:
                continue
            seen.add(name)
            target = targets[name]
            for dependency in target["dependencies"]:
                kind, value = next(iter(dependency.items()))
                condition = value[-1] if isinstance(value[-1], dict) else None
                if condition and platform not in condition.get("platformNames", [platform]):
                    continue
                if kind != "product":
                    pending.append(value[0])
            path = os.path.join(ROOT, target.get("path") or f"Sources/{name}")
            for folder, folders, names in os.walk(path):
                folders[:] = [f for f in folders if not f.endswith(".docc")]
                for file in names:
                    if file.endswith(".swift"):
                        files.setdefault(os.path.join(folder, file), set()).add(platform)
    return files


def code_of(line, in_block_comment):
    """The line without comments; and with string literals blanked (for every API but those that
    read a literal). Returns (code, code_with_strings, still_in_block_comment)."""
    code, with_strings, i, in_string = [], [], 0, False
    while i < len(line):
        if in_block_comment:
            end = line.find("*/", i)
            if end < 0:
                return "".join(code), "".join(with_strings), True
            i, in_block_comment = end + 2, False
            continue
        c = line[i]
        if in_string:
            with_strings.append(c)
            if c == "\\" and i + 1 < len(line):
                with_strings.append(line[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
                code.append('"')
            i += 1
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block_comment, i = True, i + 2
            continue
        if c == '"':
            in_string = True
        code.append(c)
        with_strings.append(c)
        i += 1
    return "".join(code), "".join(with_strings), in_block_comment


def platforms_of(condition):
    """The platforms on which an `#if` condition holds (`os(...)`, `canImport(...)`, the package's
    defines, `compiler(...)`/`swift(...)`, `!`, `&&`, `||`, parentheses)."""
    tokens = re.findall(r"\w+\s*\([^()]*\)|\w+|&&|\|\||!|\(|\)", condition)
    position = 0

    def atom(name, argument):
        if name == "os":
            return {argument.lower()} & set(ALL)
        if name == "canImport":
            return set(MODULES.get(argument.split(".")[0], set(ALL)))
        if name in ("compiler", "swift", "hasFeature", "hasAttribute", "arch", "targetEnvironment"):
            return set(ALL)
        return set(DEFINES.get(name, set()))

    def primary():
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "!":
            return set(ALL) - primary()
        if token == "(":
            value = disjunction()
            position += 1  # ")"
            return value
        call = re.match(r"(\w+)\s*\(([^()]*)\)", token)
        return atom(call.group(1), call.group(2).strip()) if call else atom(token, "")

    def conjunction():
        nonlocal position
        value = primary()
        while position < len(tokens) and tokens[position] == "&&":
            position += 1
            value = value & primary()
        return value

    def disjunction():
        nonlocal position
        value = conjunction()
        while position < len(tokens) and tokens[position] == "||":
            position += 1
            value = value | conjunction()
        return value

    try:
        return disjunction()
    except (IndexError, AttributeError):
        return set(ALL)


def literal_length(text):
    """How many Characters (grapheme clusters, roughly) a Swift string literal's contents make:
    escapes decoded, `\\r\\n` one Character as in Swift, combining marks part of the one before."""
    escapes = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'"}

    def decode(match):
        if match.group(1):
            return chr(int(match.group(1), 16))
        return escapes.get(match.group(2), match.group(2))

    decoded = re.sub(r"\\u\{([0-9a-fA-F]+)\}|\\(.)", decode, text).replace("\r\n", "\n")
    return sum(1 for c in decoded if not unicodedata.combining(c) and c not in "\u200d\ufe0f")


AVAILABLE = re.compile(r"[@#]available\s*\(([^)]*)\)")


def available_versions(text):
    """{platform: version} an `@available(...)` or `#available(...)` names."""
    found = {}
    for arguments in AVAILABLE.findall(text):
        for name, value in re.findall(r"\b(iOS|macOS|tvOS)\s+(\d+(?:\.\d+)?)", arguments):
            found[name.lower()] = version(value)
    return found


def check_file(path, platforms, minimum):
    """Findings in one file, for `platforms`."""
    findings = []
    stack = []  # (platforms where the branch taken so far holds, platforms of earlier branches)
    active = set(ALL)
    scopes = []  # (depth at which the scope closes, {platform: version})
    pending_scope = None
    depth, in_comment = 0, False
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, condition = directive.group(1), directive.group(2).split("//")[0].strip()
            if kind == "if":
                holds = platforms_of(condition)
                stack.append((active, holds))
                active = active & holds
            elif kind == "elseif" and stack:
                outer, taken = stack[-1]
                holds = platforms_of(condition) - taken
                stack[-1] = (outer, taken | holds)
                active = outer & holds
            elif kind == "else" and stack:
                outer, taken = stack[-1]
                active = outer - taken
            elif kind == "endif" and stack:
                active = stack.pop()[0]
            continue
        code, with_strings, in_comment = code_of(line, in_comment)
        versions = available_versions(code)
        if versions:
            pending_scope = versions
        for character in code:
            if character == "{":
                depth += 1
                if pending_scope is not None:
                    scopes.append((depth, pending_scope))
                    pending_scope = None
            elif character == "}":
                while scopes and scopes[-1][0] == depth:
                    scopes.pop()
                depth -= 1
        compiled = active & platforms
        if not compiled:
            continue
        relative = os.path.relpath(path, ROOT)
        for rule in APPLE_APIS:
            match = rule["pattern"].search(with_strings if rule["literal"] else code)
            if not match:
                continue
            if rule["literal"] and literal_length(match.group("separator")) < 2:
                continue
            late = []
            for platform in sorted(compiled & set(APPLE)):
                floor = minimum[platform]
                for _, scoped in scopes:
                    floor = max(floor, scoped.get(platform, floor))
                floor = max(floor, versions.get(platform, floor))
                if rule["since"][platform] > floor:
                    late.append(f"{PLATFORM_NAMES[platform]} {shown(floor)}")
            if late:
                since = " / ".join(f"{PLATFORM_NAMES[p]} {shown(rule['since'][p])}" for p in APPLE)
                findings.append(f"{relative}:{number}: {rule['name']} is {since}, later than the minimum "
                                f"{', '.join(late)} ({rule['doc']})")
        if compiled & set(APPLE):
            for name, pattern in LINUX_ONLY:
                if pattern.search(code):
                    apple = ", ".join(PLATFORM_NAMES[p] for p in sorted(compiled & set(APPLE)))
                    findings.append(f"{relative}:{number}: {name}: Linux only, but {apple} compile this line "
                                    "(put it in a branch Apple platforms skip: #if canImport(Darwin) … #else)")
    return findings


PLATFORM_NAMES = {"ios": "iOS", "macos": "macOS", "tvos": "tvOS"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", nargs="+", help="check these files for every Apple platform instead")
    parser.add_argument("--list", action="store_true", help="print the kept list of APIs and exit")
    arguments = parser.parse_args()
    if arguments.list:
        for rule in APPLE_APIS:
            since = " / ".join(f"{PLATFORM_NAMES[p]} {shown(rule['since'][p])}" for p in APPLE)
            print(f"{rule['name']}: {since}  {rule['doc']}")
        return 0
    minimum = minimums()
    files = {path: set(APPLE) for path in arguments.files} if arguments.files else closures()
    findings = []
    for path in sorted(files):
        findings += check_file(path, files[path], minimum)
    floors = ", ".join(f"{PLATFORM_NAMES[p]} {shown(minimum[p])}" for p in APPLE)
    if findings:
        print(f"What an Apple build of the test API would reject (minimums {floors}):")
        for finding in findings:
            print(f"  {finding}")
        return 1
    print(f"{len(files)} Swift files of the test API's Apple closures use nothing newer than {floors} "
          "and no Linux-only spelling outside a Linux branch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
