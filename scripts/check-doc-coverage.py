#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails, naming them, when a public symbol of the documented kits has no `///` comment.

Reads the `documentation-coverage.json` that `docc convert --experimental-documentation-coverage`
writes into each archive. Left out: members the compiler makes for a protocol (==, !=, hash(into:),
hashValue, init(rawValue:), rawValue), which have no source to comment, and the pages DocC makes for
modules and types that the kits extend (Foundation, NSNotification), and a protocol's default that
DocC lists beside the kit's own implementation.
"""
import json, re, sys

SYNTHESIZED = re.compile(r"/(==|!=)\(_:_:\)(-\w+)?$|/hash\(into:\)$|/hashValue$|/init\(rawValue:\)$|/rawValue$")
CONTAINERS = {"module", "extension"}

entries = [entry for path in sys.argv[1:] for entry in json.load(open(path))]
documented = {entry["referencePath"] for entry in entries if entry.get("hasAbstract")}
missing = []
for entry in entries:
    if True:
        kind = entry.get("kind", {})
        if not kind.get("isSymbol") or entry.get("hasAbstract"):
            continue
        reference = entry["referencePath"]
        kind_name = kind.get("id", "").split(".")[-1]
        if SYNTHESIZED.search(reference) or kind_name in CONTAINERS or kind_name.startswith(("extended", "unknownExtended")):
            continue
        # A protocol's default beside the kit's own, which DocC tells apart by a hash suffix.
        base = re.sub(r"-\w{4,6}$", "", reference)
        if base != reference and base in documented:
            continue
        missing.append(reference.split("/documentation/")[-1])
for symbol in sorted(missing):
    print(f"undocumented public symbol: {symbol}")
if missing:
    sys.exit(f"{len(missing)} public symbol(s) without a /// comment")
print("every public symbol of the kits has a /// comment")
