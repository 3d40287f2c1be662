#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ab-report.py LOG: the summary of a bench/ab.sh run. From the guest's
# "ab ROUND LABEL FIGURE VALUE" lines: per figure, the median of each
# module and its ratio to the first module's median, then that ratio
# round by round (a change smaller than their spread is noise).
# Exit status 1 when a round had an error or a module has no figure.

import statistics
import sys


def main():
    runs = {}
    labels = []
    errors = []
    with open(sys.argv[1], encoding='utf-8', errors='replace') as f:
        for line in f:
            w = line.split()
            if len(w) < 4 or w[0] != 'ab':
                continue
            if w[3] == 'error':
                errors.append(line.strip())
                continue
            if len(w) != 5:
                continue
            rnd, label, fig, val = int(w[1]), w[2], w[3], float(w[4])
            if label not in labels:
                labels.append(label)
            runs.setdefault(fig, {}).setdefault(label, {})[rnd] = val
    if not runs:
        print('ab: no figures', file=sys.stderr)
        return 1
    base = labels[0]
    missing = False
    for fig, by_label in runs.items():
        if base not in by_label:
            missing = True
            continue
        b = by_label[base]
        line = '%-20s %s %9.1f' % (fig, base, statistics.median(b.values()))
        for label in labels[1:]:
            v = by_label.get(label)
            if not v:
                missing = True
                continue
            per = ' '.join('%.2f' % (v[r] / b[r]) for r in sorted(b) if r in v and b[r])
            ratio = statistics.median(v.values()) / statistics.median(b.values())
            line += '  %s/%s %.3f [%s]' % (label, base, ratio, per)
        print(line)
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors or missing else 0


if __name__ == '__main__':
    sys.exit(main())
