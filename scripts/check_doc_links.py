#!/usr/bin/env python3
"""Checks the user-facing Markdown: README.md, CHANGELOG.md and docs/*.md (or the files given).

- Every relative link names a file that exists and, with a `#fragment`, a heading of that file
  (anchors made as GitHub makes them: lower case, punctuation dropped, spaces to hyphens, `-1`,
  `-2` … for repeated headings). Links with a scheme (https:, mailto:) are not followed.
- README.md and docs/ name no issue numbers (`#19`, `#1234`, `issue 18`; not `#123`, which could be a colour) and no commit hashes (a
  word of 7–40 hex digits with a digit and a letter, code blocks included: an example's hashes are
  shortened below 7): how a figure came to be belongs in CHANGELOG.md. Links in code blocks are
  not followed.

Prints each problem as `file:line: what`; exit 0 when there is none, 1 otherwise.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# `#19`, not a colour: `#007aff`, `#777777` (six hex digits) or `#333` (three).
ISSUE = re.compile(r"(?<![&\w])#(?:[0-9]{1,2}|[0-9]{4,5})\b|\b[Ii]ssues? #?[0-9]+")
HASH = re.compile(r"(?<![\w#])([0-9a-f]{7,40})(?!\w)")


def prose_lines(path):
    """(line number, text) of the lines outside ``` code blocks."""
    fenced = False
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", ""))
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose_lines(path):
            match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if match:
                name = slug(match.group(1))
                count = seen.get(name, 0)
                found.add(name if count == 0 else f"{name}-{count}")
                seen[name] = count + 1
        cache[path] = found
    return cache[path]


def problems(path):
    relative = os.path.relpath(path, ROOT)
    if relative == "README.md" or relative.startswith("docs" + os.sep):
        with open(path, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                for match in ISSUE.finditer(line):
                    yield f"{relative}:{number}: an issue number ({match.group(0)}): history goes to CHANGELOG.md"
                for match in HASH.finditer(line):
                    word = match.group(1)
                    if re.search(r"[0-9]", word) and re.search(r"[a-f]", word):
                        yield f"{relative}:{number}: a commit hash ({word}): history goes to CHANGELOG.md"
    for number, line in prose_lines(path):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            name, _, fragment = target.partition("#")
            destination = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
            if not os.path.exists(destination):
                yield f"{relative}:{number}: no file {name} (link {target})"
            elif fragment and destination.endswith(".md") and fragment not in anchors(destination):
                yield f"{relative}:{number}: no heading #{fragment} in {os.path.relpath(destination, ROOT)}"


def main(arguments):
    paths = arguments or [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CHANGELOG.md")] + sorted(
        os.path.join(ROOT, "docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md")
    )
    found = [problem for path in paths for problem in problems(os.path.abspath(path))]
    for problem in found:
        print(problem)
    print(f"{len(paths)} files, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
