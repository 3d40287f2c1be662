#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive the per-op form of a genetlink spec for kernels without split ops.

Linux 6.1 has no struct genl_split_ops, so ynl-gen's default (split) kernel
code does not build there. ynl-gen can also emit the older per-operation
form (struct genl_ops), which both 6.1 and later kernels accept, but only
for genetlink-legacy specs in which every operation has a "do" request
with at least one attribute. This script makes that spec from the real
one, changing nothing else:

- protocol becomes genetlink-legacy, kernel-policy becomes per-op;
- notifications (operations with "notify" or "event") are left out: the
  per-op form has no table entry for them, and ynl-gen would count them
  in the ops array anyway. The kernel code names their commands and the
  multicast groups through the UAPI header and the group enum, which stay
  as the real spec makes them;
- an operation whose "do" has no request attributes gets the first
  attribute of its attribute set as request. The split form of such an
  operation has no policy and ignores any attribute; the per-op form then
  accepts that one attribute and the handler ignores it the same way.
"""
import sys

import yaml


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    spdx = text.splitlines()[0]
    spec = yaml.safe_load(text)

    spec["protocol"] = "genetlink-legacy"
    spec["kernel-policy"] = "per-op"

    sets = {s["name"]: s for s in spec["attribute-sets"]}
    ops = spec["operations"]["list"]
    ops[:] = [op for op in ops if "notify" not in op and "event" not in op]
    for op in ops:
        do = op.get("do")
        if do is None:
            sys.exit(f"{op['name']}: per-op form needs a do operation")
        request = do.get("request") or {}
        if not request.get("attributes"):
            first = sets[op["attribute-set"]]["attributes"][0]["name"]
            do["request"] = {"attributes": [first]}

    with open(dst, "w", encoding="utf-8") as f:
        f.write(f"{spdx}\n# Derived by scripts/nl-legacy-spec.py: do not edit.\n")
        yaml.safe_dump(spec, f, sort_keys=False)


if __name__ == "__main__":
    main()
