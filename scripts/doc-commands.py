#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# doc-commands.py - every shell command the documentation shows is either
# exercised by the test suite or marked illustrative.
#
# Commands are the lines of README.md's indented code blocks and of the
# `.. code-block:: sh` (bash, shell, console) blocks of Documentation/*.rst;
# a line ending in a backslash continues on the next, a trailing
# "  # comment" is dropped, and comment-only lines are not commands.
#
# Each command needs one of:
#  - an rst comment `.. illustrative: REASON` right before its block;
#  - rows in Documentation/doc-commands.txt (TAB-separated: COMMAND, FILE,
#    EVIDENCE): FILE, a file of the test suite, must contain the fixed
#    string EVIDENCE; or FILE is `illustrative` and EVIDENCE the reason.
# A row whose command no document shows (any more) is an error too.
#
# It proves that a named test runs the command, usually with the test's
# own names and addresses, not that it runs the document's exact text.
# Exit status 0 when everything is accounted for.

import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = 'Documentation/doc-commands.txt'
SHELL_LANGS = ('sh', 'bash', 'shell', 'console')


def clean(line):
    """A command line without its trailing comment, blanks collapsed."""
    line = re.sub(r'\s+#\s.*$', '', line.strip())
    return ' '.join(line.split())


def join_lines(lines):
    """Join backslash continuations; drop blanks and comment-only lines."""
    out, cur = [], ''
    for raw in lines:
        s = raw.strip()
        if not cur and (not s or s.startswith('#')):
            continue
        if s.endswith('\\'):
            cur += s[:-1] + ' '
            continue
        out.append(clean(cur + s))
        cur = ''
    if cur:
        out.append(clean(cur))
    return [c for c in out if c]


def from_markdown(path):
    """Commands of the indented code blocks (and shell fences) of a README."""
    cmds, block, fence = [], [], None
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    for line in lines + ['']:
        m = re.match(r'^\s*```+\s*(\w*)', line)
        if m:
            if fence is None:
                fence = m.group(1)
            else:
                if fence in SHELL_LANGS:
                    cmds += join_lines(block)
                fence, block = None, []
            continue
        if fence is not None:
            block.append(line)
        elif line.startswith('    ') or line.startswith('\t'):
            block.append(line)
        elif line.strip():
            cmds += join_lines(block)
            block = []
        else:
            block.append(line)
    return [(c, None) for c in cmds]


def from_rst(path):
    """(command, illustrative reason or None) of each shell code block."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    out, i, prev = [], 0, ''
    while i < len(lines):
        line = lines[i]
        m = re.match(r'^(\s*)\.\. code-block::\s*(\S+)', line)
        if not m:
            if line.strip():
                prev = line.strip()
            i += 1
            continue
        indent, lang = len(m.group(1)), m.group(2)
        reason = None
        r = re.match(r'^\.\. illustrative:\s*(.*)$', prev)
        if r:
            reason = r.group(1).strip() or None
            if reason is None:
                sys.exit('%s:%d: `.. illustrative:` needs a reason'
                         % (path, i + 1))
        i += 1
        block = []
        while i < len(lines):
            s = lines[i]
            if s.strip() and len(s) - len(s.lstrip()) <= indent:
                break
            if not s.strip().startswith(':'):
                block.append(s)
            i += 1
        if lang in SHELL_LANGS:
            out += [(c, reason) for c in join_lines(block)]
        prev = ''
    return out


def read_table(path):
    rows = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.rstrip('\n').split('\t')
            parts = [p for p in parts if p != '']
            if len(parts) != 3:
                sys.exit('%s:%d: want COMMAND<TAB>FILE<TAB>EVIDENCE'
                         % (path, n))
            rows.append((n, clean(parts[0]), parts[1], parts[2]))
    return rows


def main():
    os.chdir(TOP)
    docs = ['README.md'] + sorted(glob.glob('Documentation/*.rst'))
    found = []      # (doc, command, illustrative reason)
    for doc in docs:
        parse = from_markdown if doc.endswith('.md') else from_rst
        found += [(doc, c, r) for c, r in parse(doc)]
    rows = read_table(TABLE)

    problems = []
    by_cmd = {}
    for n, cmd, where, evidence in rows:
        by_cmd.setdefault(cmd, []).append((n, where, evidence))
        if where == 'illustrative':
            continue
        if not os.path.isfile(where):
            problems.append('%s:%d: %s does not exist' % (TABLE, n, where))
            continue
        with open(where, encoding='utf-8', errors='replace') as f:
            if evidence not in f.read():
                problems.append('%s:%d: %s does not contain %r'
                                % (TABLE, n, where, evidence))

    tested = illustrative = 0
    needed = set()
    for doc, cmd, reason in found:
        if reason:
            illustrative += 1
            continue
        needed.add(cmd)
        if cmd not in by_cmd:
            problems.append('%s: %r is neither in %s nor marked illustrative'
                            % (doc, cmd, TABLE))
        elif all(w == 'illustrative' for _, w, _ in by_cmd[cmd]):
            illustrative += 1
        else:
            tested += 1
    for cmd, uses in sorted(by_cmd.items()):
        if cmd not in needed:
            problems.append('%s:%d: %r appears in no document (or only in '
                            'a block marked illustrative)'
                            % (TABLE, uses[0][0], cmd))

    for p in problems:
        print('doc-commands: ' + p)
    print('doc-commands: %d commands in %d documents: %d tested, '
          '%d illustrative, %d problems'
          % (len(found), len(docs), tested, illustrative, len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
