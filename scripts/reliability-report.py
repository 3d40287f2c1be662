#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Reliability report of one make check run, as reStructuredText.

Reads the KTAP output and guest consoles make check leaves in its log
directory (build/check) and writes what was tried and what came of it:
the fault points fired under NFS load, the hostile inputs sent, the load
held, the data checked, and the leak checks at the end of each test
host. Nothing in it is written by hand: every row comes from a line the
selftests printed.

It fails (exit 1) when the run does not back the report: a test case
failed, a fault point of the spec never fired in a kernel, a leak was
reported, or the module did not unload at the end of a test host.

usage: reliability-report.py LOGDIR SPEC [OUT.rst]
"""

import datetime
import itertools
import pathlib
import re
import subprocess
import sys

import yaml

PROGRAM = re.compile(r'^# selftests: xrpcrdma: (\S+)$')
CASE = re.compile(r'^# (ok|not ok) \d+ (\S+)(.*)$')
NOTE = re.compile(r'^# # (.*)$')
# The duration run_test prints before each case: not a note of it.
DURATION = re.compile(r'^# # \S+ took \d+ ms$')
FIRED = re.compile(r'^(\S+): (.*) hits (\d+) fired (\d+), copy (\d+) s$')
SINGLE_LOG = re.compile(r'^selftests-(.+?)(\.part\d+)?\.log$')
CONSOLE_KEY = re.compile(r'^XR-TESTHOST-(RC|RMMOD|TAINT)=(\d+)$')
LEAK = re.compile(r'object\(s\) leaked')
WIRE_FUZZ = re.compile(r'^wire-fuzz: sent (\d+), reply (\d+), rdma_error (\d+) '
                       r'\(ERR_VERS (\d+), ERR_CHUNK (\d+)\), disconnected (\d+), '
                       r'silent (\d+), malformed (\d+), batches (\d+), seed (\d+)$')

# Selftest programs by what they try; each row of the report is one of
# their cases.
HOSTILE = ('svc_hostile.sh', 'nl_fuzz.sh')  # wire_fuzz.sh: a section of its own
LOAD = ('stress.sh',)
# The two-guest steps of make check: (log and console directory name
# without the kernel, selftest).
PAIR_STEPS = (('pair', 'xprt_interop.sh'), ('pair-restart', 'peer_restart.sh'))
# Cases that compare what they read back with what was written (SHA-256
# or byte for byte), by name.
DATA_CASE = re.compile(r'write_read|under_nfs_load|no_lost_replies|'
                       r'no_deadlock|_at_once|under_load|mid_transfer|'
                       r'chunks_through|rpc_timeout|after_restart')
# Cases that check that every object was released, by name.
RELEASE_CASE = re.compile(r'no_transport_left|transport_gone|'
                          r'unload_clean|no_leak|objects_released|'
                          r'server_unload|client_unload')


def merge_runs(runs):
    """One {program: cases} of several parse_ktap() results (the parts of
    one kernel's run), in order."""
    merged = {}
    for run in runs:
        for program, cases in run.items():
            merged.setdefault(program, []).extend(cases)
    return merged


def parse_ktap(path, default=None):
    """{program: [(case, ok, [notes])]} of one selftests log; cases
    outside any "# selftests:" program go under @default, if given."""
    programs = {}
    cases = programs.setdefault(default, []) if default else None
    notes = []
    if not path.exists():
        return programs
    for line in path.read_text(errors='replace').splitlines():
        m = PROGRAM.match(line)
        if m:
            cases = programs.setdefault(m.group(1), [])
            notes = []
            continue
        if cases is None:
            continue
        m = NOTE.match(line)
        if m and not DURATION.match(line):
            notes.append(m.group(1))
            continue
        m = CASE.match(line)
        if m:
            cases.append((m.group(2), m.group(1) == 'ok', notes))
            notes = []
    return programs


def parse_console(path):
    """(values of XR-TESTHOST-*, leak report lines) of a guest console."""
    keys, leaks = {}, []
    if not path.exists():
        return keys, leaks
    for line in path.read_text(errors='replace').splitlines():
        m = CONSOLE_KEY.match(line)
        if m:
            keys[m.group(1)] = int(m.group(2))
        elif LEAK.search(line):
            leaks.append(line.strip())
    return keys, leaks


def table(header, rows):
    """An RST list-table."""
    out = ['.. list-table::', '   :header-rows: 1', '']
    for row in [header] + rows:
        out.append('   * - ' + (row[0] or '---'))
        out.extend('     - ' + (cell or '---') for cell in row[1:])
    return out + ['']


def mark(ok):
    return 'pass' if ok else '**FAIL**'


def section(title, char='='):
    return [title, char * len(title), '']


class Report:
    def __init__(self, logdir, spec):
        self.logdir = logdir
        # A kernel's single-guest runs: selftests-KVER.log, or its parts
        # selftests-KVER.partN.log (each with guest-KVER.partN.console).
        parts = {}
        for p in sorted(logdir.glob('selftests-*.log')):
            if p.name.startswith(('selftests-pair-', 'selftests-build')):
                continue
            m = SINGLE_LOG.match(p.name)
            parts.setdefault(m.group(1), []).append(m.group(2) or '')
        self.kernels = sorted(parts)
        self.runs = {k: merge_runs(parse_ktap(logdir / f'selftests-{k}{part}.log')
                                   for part in parts[k])
                     for k in self.kernels}
        # The two-guest steps make check ran (not every kernel runs every
        # one): (step, test, kernel of guest A, of guest B, the step's
        # name after its test), guest B's kernel where it differs named
        # after A's: selftests-pair-KA-KB.log.
        self.pair_logs = [
            (step, test, ka, kb, name)
            for step, test in PAIR_STEPS
            for ka, kb in itertools.product(self.kernels, repeat=2)
            for name in [f'{step}-{ka}' if ka == kb else f'{step}-{ka}-{kb}']
            if (logdir / f'selftests-{name}.log').exists()]
        self.pair_ran = {k: {test: any(k in (ka, kb) and t == test
                                       for _, t, ka, kb, _ in self.pair_logs)
                             for _, test in PAIR_STEPS}
                         for k in self.kernels}
        self.pairs = {k: {test: [] for _, test in PAIR_STEPS} for k in self.kernels}
        for _, test, ka, kb, name in self.pair_logs:
            cases = parse_ktap(logdir / f'selftests-{name}.log', 'pair').get('pair', [])
            for k in {ka, kb}:
                self.pairs[k][test] += cases
        self.consoles = {k: [(k + part.replace('.part', ', part '),
                              parse_console(logdir / f'guest-{k}{part}.console'))
                             for part in parts[k]]
                         for k in self.kernels}
        doc = yaml.safe_load(spec.read_text())
        self.points = next(d['entries'] for d in doc['definitions']
                           if d['name'] == 'fault-point')
        self.problems = []

    def cases(self, k, program):
        return self.runs[k].get(program, [])

    def case_row(self, program, case):
        """Per kernel: (ok, notes) of one case, None where it did not run."""
        got = []
        for k in self.kernels:
            found = [c for c in self.cases(k, program) if c[0] == case]
            got.append((found[0][1], found[0][2]) if found else None)
        return got

    def all_cases(self, programs):
        """Case names of the given programs, in run order, each once."""
        seen = []
        for k in self.kernels:
            for program in programs:
                for case, _, _ in self.cases(k, program):
                    if (program, case) not in seen:
                        seen.append((program, case))
        return seen

    def results(self, program, case):
        cells = []
        for k, got in zip(self.kernels, self.case_row(program, case)):
            if got is None:
                cells.append('not run')
                self.problems.append(f'{k}: {program} {case} did not run')
            else:
                cells.append(mark(got[0]))
                if not got[0]:
                    self.problems.append(f'{k}: {program} {case} failed')
        return cells

    def faults(self):
        out = section('Faults tried')
        out += ['Each fault point armed with ``rdmactl fault set`` while the '
                'in-kernel NFS client copies a file onto a mount of our '
                'server (our client for frwr-reg), from ``faults.sh``. '
                '"fired" is how often the point failed during the copy; the '
                'copy must finish and read back with the same SHA-256.', '']
        rows = []
        for point in self.points:
            row = [f'``{point}``']
            trigger = None
            for k in self.kernels:
                fired = [m for _, _, notes in self.cases(k, 'faults.sh')
                         for m in map(FIRED.match, notes)
                         if m and m.group(1) == point]
                if not fired:
                    row.append('not tried')
                    self.problems.append(f'{k}: fault point {point} not tried')
                    continue
                m = fired[0]
                trigger = trigger or m.group(2)
                row.append(f'{m.group(4)} of {m.group(3)} hits, '
                           f'copy {m.group(5)} s')
                if int(m.group(4)) < 1:
                    self.problems.append(f'{k}: {point} never fired')
            case = next((c for p, c in self.all_cases(['faults.sh'])
                         if c.startswith('fault_' + point.replace('-', '_'))),
                        None)
            result = self.results('faults.sh', case) if case else \
                ['not run'] * len(self.kernels)
            rows.append([row[0], trigger] + row[1:] +
                        [', '.join(result)])
        header = (['point', 'trigger'] + [f'fired ({k})' for k in self.kernels]
                  + ['result'])
        return out + table(header, rows)

    def case_table(self, programs, note_of=None):
        rows = []
        for program, case in self.all_cases(programs):
            notes = next((got[1] for got in self.case_row(program, case)
                          if got), [])
            rows.append([f'``{case}``', program,
                         note_of(case, notes) if note_of else ''] +
                        self.results(program, case))
        header = ['case', 'program', 'outcome'] + self.kernels
        return table(header, rows)

    def hostile(self):
        out = section('Inputs tried')
        out += ['Hostile transport headers sent to our server with '
                '``rdmactl ping --raw-hex`` (``svc_hostile.sh``), and random '
                'attribute sets sent to every netlink operation '
                '(``nl_fuzz.sh``). The outcome is what the server did, as '
                f'the test saw it on {self.kernels[0]} (every kernel must '
                'pass the same check).', '']

        def outcome(case, notes):
            said = [n.split(': ', 1)[1] for n in notes
                    if n.startswith(case + ': ')]
            return said[0] if said else ''
        return out + self.case_table(HOSTILE, outcome)

    def wire_fuzz(self):
        out = section('Wire fuzzing')
        out += ['Mutated RPC-over-RDMA calls sent to our server (nfsd behind '
                'it) by ``xr-wire-fuzz`` from ``wire_fuzz.sh``: what the '
                'server answered to each, and how many batches ended with a '
                'valid NULL call answered on a fresh connection. "silent" '
                'is no answer within the fuzzer\'s wait; "malformed" (an '
                'answer that is not a reply) fails the run.', '']
        rows = []
        for k in self.kernels:
            got = [(ok, m) for c, ok, notes in self.cases(k, 'wire_fuzz.sh')
                   if c == 'wire_fuzz'
                   for m in [next(filter(None, map(WIRE_FUZZ.match, notes)),
                                  None)]]
            if not got or not got[0][1]:
                self.problems.append(f'{k}: wire_fuzz.sh reported no summary')
                rows.append([k] + ['not run'] * 7)
                continue
            ok, m = got[0]
            if not ok:
                self.problems.append(f'{k}: wire_fuzz.sh wire_fuzz failed')
            (sent, reply, error, vers, chunk, disc, silent, malformed,
             batches, seed) = m.groups()
            rows.append([k, sent, reply,
                         f'{error} (ERR_VERS {vers}, ERR_CHUNK {chunk})',
                         disc, silent, malformed, f'{batches}, seed {seed}',
                         mark(ok)])
        header = ['kernel', 'sent', 'reply', 'rdma_error', 'disconnected',
                  'silent', 'malformed', 'batches passed', 'result']
        for row in rows:
            row += [''] * (len(header) - len(row))
        return out + table(header, rows)

    def load(self):
        out = section('Load held')
        out += ['Resource corners under NFS load (``stress.sh``), with what '
                'the test measured.', '']

        def measured(case, notes):
            keep = [n for n in notes if not re.search(r'bytes .* copied', n)]
            return '; '.join(keep)
        return out + self.case_table(LOAD, measured)

    def data(self):
        out = section('Data verified')
        out += ['Cases that compare what they read back with what was '
                'written (SHA-256, or byte for byte), in every program and '
                'the two-guest test.', '']
        rows = []
        for program, case in self.all_cases(sorted(
                {p for k in self.kernels for p in self.runs[k]})):
            if DATA_CASE.search(case):
                rows.append([f'``{case}``', program] +
                            self.results(program, case))
        for _, test in PAIR_STEPS:
            pair_cases = []
            for k in self.kernels:
                pair_cases += [c for c, _, _ in self.pairs[k][test]
                               if DATA_CASE.search(c) and c not in pair_cases]
            for case in pair_cases:
                cells = []
                for k in self.kernels:
                    got = [ok for c, ok, _ in self.pairs[k][test] if c == case]
                    if not self.pair_ran[k][test]:
                        cells.append('not run on this kernel')
                        continue
                    cells.append(mark(got[0]) if got else 'not run')
                    if not got or not got[0]:
                        self.problems.append(f'{k}: {test} {case} failed')
                rows.append([f'``{case}``', f'{test} (two guests)'] + cells)
        return out + table(['case', 'program'] + self.kernels, rows)

    def leaks(self):
        out = section('Leaks found')
        names = sorted({c for k in self.kernels
                        for p in self.runs[k].values()
                        for c, _, _ in p if RELEASE_CASE.search(c)})
        out += ['At the end of each test host the module must unload '
                '(``rmmod``) and report no leaked object. The release '
                'checks (' + ', '.join(f'``{n}``' for n in names) + ') '
                'wait for every live-object counter to go back to zero.', '']
        rows = []
        for k in self.kernels:
            releases = [ok for p in self.runs[k].values()
                        for c, ok, _ in p if RELEASE_CASE.search(c)]
            if not releases:
                self.problems.append(f'{k}: no release check ran')
            for n, (host, console) in enumerate(self.consoles[k]):
                rows.append(self.unload_row(host, console) +
                            [f'{sum(releases)} of {len(releases)}' if n == 0 else ''])
            for _, test, ka, kb, name in self.pair_logs:
                for guest, gk in (('A', ka), ('B', kb)):
                    console = self.logdir / name / f'{guest}.console'
                    if gk == k and console.exists():
                        rows.append(self.unload_row(
                            f'{k}, {test} guest {guest}',
                            parse_console(console)) + [''])
        return out + table(['test host', 'rmmod at the end',
                            'leak reports', 'release checks passed'], rows)

    def unload_row(self, host, console):
        keys, leaks = console
        if keys.get('RMMOD') != 0:
            self.problems.append(f'{host}: module did not unload')
        if leaks:
            self.problems.append(f'{host}: leaks reported: {leaks[0]}')
        return [host, 'unloaded' if keys.get('RMMOD') == 0 else
                f'**rmmod failed ({keys.get("RMMOD")})**', str(len(leaks))]

    def render(self):
        out = ['.. SPDX-License-Identifier: GPL-2.0', '',
               '.. Generated by scripts/reliability-report.py from the logs '
               'of make check; do not edit.', '']
        title = 'Reliability of xrpcrdma'
        out += ['=' * len(title), title, '=' * len(title), '']
        out += ['What ``make check`` tried against the module and what came '
                'of it, in its last recorded run (' + run_id() + '), kernels '
                + ', '.join(self.kernels) + '. ``make check`` writes the '
                'report of each run to ``build/check/reliability.rst`` and '
                'fails when a fault point was not tried, a case failed, an '
                'object leaked or the module did not unload.', '']
        for part in (self.faults, self.hostile, self.wire_fuzz, self.load,
                     self.data,
                     self.leaks):
            out += [''] + part()
        return '\n'.join(out).rstrip('\n') + '\n'


def run_id():
    """The commit checked (the working tree's HEAD) and today's date."""
    try:
        commit = subprocess.run(['git', 'rev-parse', '--short=12', 'HEAD'],
                                capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = 'unknown commit'
    return f'commit {commit}, {datetime.date.today().isoformat()}'


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    report = Report(pathlib.Path(argv[1]), pathlib.Path(argv[2]))
    if not report.kernels:
        print(f'{argv[1]}: no selftests logs', file=sys.stderr)
        return 1
    text = report.render()
    if len(argv) == 4:
        pathlib.Path(argv[3]).write_text(text)
    else:
        sys.stdout.write(text)
    for problem in dict.fromkeys(report.problems):
        print(f'reliability: {problem}', file=sys.stderr)
    return 1 if report.problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
