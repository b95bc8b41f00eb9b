#!/usr/bin/env python3
"""Checks that the test-side API builds as an iOS UI-test bundle needs it: the build closure of
the SnapdiffTesting product, for iOS, holds only Swift targets of this package (no C target, no
system library, no other package: no Hummingbird, NIO, GRDB, ArgumentParser) and no target with
unsafe flags, which SwiftPM refuses in a package used by version.

It reads the manifest as SwiftPM resolves it (`swift package dump-package`), follows every
target dependency whose platform condition includes iOS, and fails naming what it found, so a
dependency added to SnapdiffTesting or SnapdiffModel fails CI. Exit 0 when the closure is clean,
1 when it is not, 2 when the manifest cannot be read.
"""
import json
import os
import subprocess
import sys

PLATFORM = "ios"
PRODUCT = "SnapdiffTesting"


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                              capture_output=True, text=True).stdout
        manifest = json.loads(dump)
    except (subprocess.CalledProcessError, json.JSONDecodeError) as error:
        print(f"check_test_api_closure: cannot read the manifest: {error}", file=sys.stderr)
        return 2
    targets = {target["name"]: target for target in manifest["targets"]}
    product = next(p for p in manifest["products"] if p["name"] == PRODUCT)

    problems, seen = [], []
    pending = list(product["targets"])
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.append(name)
        target = targets.get(name)
        if target is None:
            problems.append(f"{name}: not a target of this package")
            continue
        if target["type"] != "regular":
            problems.append(f"{name}: a {target['type']} target")
        # SwiftPM refuses a product of a package used by version when a target in its closure
        # has unsafe flags, whatever their platform condition (`snapdiff`'s static link has some).
        for setting in target.get("settings", []):
            if "unsafeFlags" in setting.get("kind", {}):
                problems.append(f"{name}: unsafe flags ({setting.get('tool')} settings)")
        path = os.path.join(root, target.get("path") or f"Sources/{name}")
        for folder, folders, files in os.walk(path):
            # A DocC catalogue (X.docc) is documentation: SwiftPM compiles nothing in it.
            folders[:] = [f for f in folders if not f.endswith(".docc")]
            for file in files:
                if not file.endswith(".swift"):
                    problems.append(f"{name}: {os.path.relpath(os.path.join(folder, file), root)} is not Swift")
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            condition = value[-1] if isinstance(value[-1], dict) else None
            if condition and PLATFORM not in condition.get("platformNames", [PLATFORM]):
                continue
            if kind == "product":
                problems.append(f"{name}: depends on {value[0]} from package {value[1]}")
            else:
                pending.append(value[0])

    closure = ", ".join(sorted(seen))
    if problems:
        print(f"The {PRODUCT} product's build closure for {PLATFORM} is not plain Swift ({closure}):")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(f"{PRODUCT} for {PLATFORM} builds from {closure}: Swift targets of this package only "
          "(no C, no system library, no other package, no unsafe flags)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
