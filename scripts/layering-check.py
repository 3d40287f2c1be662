#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""layering-check.py - keep the module's netlink layer where design.rst
draws it.

The netlink files (module/nl*.c, and nl.h, which only they include) format
copies the owning layers make (module/snap.h); the other layers reach
netlink only through the notify interface. This script checks, over the
C sources:

1. Includes: a netlink file includes no local header but nl.h and the
   generated nl-gen*.h; no other file includes nl.h.
2. No reach into another layer: a netlink file names no struct field of
   another layer (the field prefixes below) and takes no lock of another
   layer (no xr_*_lock()/mutex_lock() but its own spinlock).
3. Netlink stays in the netlink files: no other file builds a netlink
   message or parses an attribute (nla_put*, genlmsg_*, nla_get*).
4. One direction: from outside the netlink files only the notify
   interface (xr_nl_notify_*, xr_nl_listening) and xr_nl_init/exit are
   called; and the function call graph of the module, read from the
   sources, has no cycle through a netlink function.

5. Headers by layer: each module header includes only the headers of
   the layers below it (HEADER_DEPS), a header not listed there is an
   error until its place is decided, server files (svc_*) include no
   client header and client files (xprt_*) no server header, and the
   shared layers (endpoint, queues, rdma_rw, codec, core services)
   include neither role's.
6. Size: no module header over 300 lines, no C file over 900 (the
   files generated from the spec aside).

With --selftest it first checks that each rule catches a violation
planted in a copy of the sources. Exit status 0 when everything holds.
"""
import os
import re
import shutil
import sys
import tempfile

# Field prefixes of structs owned by layers other than netlink.
# (struct xr_config and the snapshots are values netlink may read.)
FOREIGN_FIELDS = ('sx', 'rx', 'xc', 'xd', 'ep', 'sq', 'rcvq', 'rctx', 'rc',
                  'sc', 'rw', 'mr', 'hd', 'xb', 'bc')
# The local headers each module header may include: the layers below it.
HEADER_DEPS = {
    'compat.h': {'conftest.h'},
    'core.h': {'compat.h'},
    'proto.h': {'kshim.h'},
    'fault.h': set(),
    'stats.h': set(),
    'snap.h': set(),
    'bench.h': set(),
    'bench_rdma.h': {'bench.h'},
    'registry.h': set(),
    'ep.h': {'core.h', 'proto.h'},
    'sendq.h': {'ep.h'},
    'recvq.h': {'ep.h', 'proto.h'},
    'rw.h': {'sendq.h'},
    'svc.h': {'recvq.h', 'sendq.h', 'snap.h', 'stats.h'},
    'xprt.h': {'recvq.h', 'sendq.h', 'snap.h', 'stats.h'},
    'xprt_req.h': {'xprt.h'},
    'nl.h': {'bench.h', 'core.h', 'fault.h', 'snap.h', 'stats.h', 'nl-gen.h',
             'nl-gen-legacy.h'},
    # Tracepoint headers: the layers whose fields their events copy.
    'trace_common.h': {'ep.h', 'proto.h'},
    'trace_ep.h': {'ep.h', 'proto.h', 'trace_common.h'},
    'trace_wr.h': {'ep.h', 'recvq.h', 'rw.h', 'sendq.h', 'trace_common.h'},
    'trace_msg.h': {'ep.h', 'proto.h', 'recvq.h', 'trace_common.h'},
    'trace_svc.h': {'ep.h', 'proto.h', 'recvq.h', 'sendq.h',
                    'trace_common.h'},
    'trace_xprt.h': {'proto.h', 'recvq.h', 'xprt.h', 'xprt_req.h',
                     'trace_common.h'},
}
SERVER_HEADERS = {'svc.h', 'trace_svc.h'}
CLIENT_HEADERS = {'xprt.h', 'xprt_req.h', 'trace_xprt.h'}
# Files of the layers both roles share: they know neither role.
SHARED_FILES = re.compile(r'^(ep|sendctx|sendq_timeout|recvctx|rw|proto|'
                          r'proto_encode|core|'
                          r'config|device|fault|sendq|recvq|stats|sysctl|'
                          r'compat|trace_(common|ep|wr|msg))\.[ch]$')
MAX_HEADER_LINES = 300
MAX_C_LINES = 900
NOTIFY_API = re.compile(r'^xr_nl_(notify_\w+|listening|init|exit)$')
NETLINK_CALLS = re.compile(r'\b(nla_put\w*|nla_get\w*|genlmsg_\w+|'
                           r'nla_nest_\w+)\s*\(')
LOCK_CALLS = re.compile(r'\b(xr_\w+_lock|xr_\w+_unlock|mutex_lock|'
                        r'mutex_unlock|down_read|down_write)\s*\(')
FIELD_USE = re.compile(r'(?:->|\.)((?:%s)_\w+)' % '|'.join(FOREIGN_FIELDS))
# Any spelling of an include; only the module's own headers are judged.
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">]+)[">]', re.M)
FUNC_DEF = re.compile(r'^(?!static inline)[a-z][^;=()]*?\b(\w+)\(([^;{]*?)\)\s*\n\{',
                      re.M)
CALL = re.compile(r'\b([a-z_][a-z0-9_]*)\s*\(')


def is_nl(name):
    return re.match(r'^nl(_\w+)?\.[ch]$', name) is not None


def generated(name):
    return name.startswith('nl-gen')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def functions(text):
    """Yield (name, body) for each function defined at file level."""
    for m in FUNC_DEF.finditer(text):
        start = m.end() - 1
        depth = 0
        for i in range(start, len(text)):
            if text[i] == '{':
                depth += 1
            elif text[i] == '}':
                depth -= 1
                if depth == 0:
                    yield m.group(1), text[start:i + 1]
                    break


def check(moddir):
    errors = []
    files = sorted(f for f in os.listdir(moddir)
                   if f.endswith(('.c', '.h')) and not generated(f))
    raw = {f: open(os.path.join(moddir, f)).read() for f in files}
    src = {f: strip_comments(t) for f, t in raw.items()}

    # The module's own headers each file includes.
    local = set(os.listdir(moddir))
    includes = {f: set(INCLUDE.findall(raw[f])) & local for f in files}

    # 1. includes
    for f in files:
        for inc in includes[f]:
            if is_nl(f) and f.endswith('.c') and \
                    inc not in ('nl.h',) and not inc.startswith('nl-gen'):
                errors.append('%s: includes "%s"; netlink files include '
                              'nl.h only' % (f, inc))
            if not is_nl(f) and inc == 'nl.h':
                errors.append('%s: includes nl.h, which is for the netlink '
                              'files only' % f)

    # 5. headers by layer
    for f in files:
        incs = includes[f]
        if f.endswith('.h'):
            if f not in HEADER_DEPS:
                errors.append('%s: a header with no place in HEADER_DEPS '
                              '(scripts/layering-check.py)' % f)
            else:
                for inc in sorted(incs - HEADER_DEPS[f]):
                    errors.append('%s: includes "%s", which is not a layer '
                                  'below it' % (f, inc))
        if f.startswith('svc_') and incs & CLIENT_HEADERS:
            errors.append('%s: a server file includes a client header' % f)
        if f.startswith('xprt_') and incs & SERVER_HEADERS:
            errors.append('%s: a client file includes a server header' % f)
        if SHARED_FILES.match(f) and incs & (CLIENT_HEADERS | SERVER_HEADERS):
            errors.append('%s: a layer both roles share includes a role '
                          'header' % f)

    # 6. size
    for f in files:
        lines = raw[f].count('\n')
        limit = MAX_HEADER_LINES if f.endswith('.h') else MAX_C_LINES
        if lines > limit:
            errors.append('%s: %d lines, over %d: split it along a layer'
                          % (f, lines, limit))

    # 2. fields and locks of other layers
    for f in files:
        if not is_nl(f) or not f.endswith('.c'):
            continue
        for n, line in enumerate(src[f].split('\n'), 1):
            for field in FIELD_USE.findall(line):
                errors.append('%s:%d: reads %s, a field of another layer; '
                              'copy it into a snapshot (snap.h)'
                              % (f, n, field))
            for lock in LOCK_CALLS.findall(line):
                errors.append('%s:%d: takes a lock (%s): the owning layer '
                              'locks while it copies' % (f, n, lock))

    # 3. netlink calls outside the netlink files
    for f in files:
        if is_nl(f):
            continue
        for n, line in enumerate(src[f].split('\n'), 1):
            for call in NETLINK_CALLS.findall(line):
                errors.append('%s:%d: %s() outside the netlink files'
                              % (f, n, call))

    # 4. call graph
    owner = {}
    calls = {}
    for f in files:
        if not f.endswith('.c'):
            continue
        for name, body in functions(src[f]):
            owner[name] = f
            calls[name] = set(CALL.findall(body))
    for name in calls:
        calls[name] = {c for c in calls[name] if c in owner and c != name}
        if is_nl(owner[name]):
            continue
        for c in calls[name]:
            if is_nl(owner[c]) and not NOTIFY_API.match(c):
                errors.append('%s: %s() calls %s() of %s; only the notify '
                              'interface is called from outside netlink'
                              % (owner[name], name, c, owner[c]))
    if len(owner) < 100:
        errors.append('only %d functions found: the parser lost its way'
                      % len(owner))
    for cycle in cycles(calls):
        if any(is_nl(owner[fn]) for fn in cycle):
            errors.append('call cycle through netlink: %s'
                          % ' -> '.join(cycle + [cycle[0]]))
    return errors


def cycles(graph):
    """The strongly connected components with more than one function."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def plant(moddir, fname, anchor, text):
    path = os.path.join(moddir, fname)
    if anchor is None:
        open(path, 'w').write(text)
        return
    s = open(path).read()
    i = s.index(anchor)
    open(path, 'w').write(s[:i] + text + s[i:])


def selftest(moddir):
    """Each rule must catch a violation planted in a copy."""
    cases = [
        ('include', 'nl_xprt.c', '#include "nl.h"', '#include "proto.h"\n'),
        ('field', 'nl_xprt.c', 'static bool xr_nl_is_listener',
         'static u32 xr_nl_peek(struct xr_svc_xprt *sx)\n{\n'
         '\treturn sx->sx_credits;\n}\n\n'),
        ('lock', 'nl_xprt.c', 'static bool xr_nl_is_listener',
         'static void xr_nl_hold(void)\n{\n\txr_reg_lock();\n}\n\n'),
        ('netlink outside', 'device.c', '/**\n * xr_device_snapshot',
         'static int xr_device_put(struct sk_buff *m)\n{\n'
         '\treturn nla_put_u32(m, 1, 2);\n}\n\n'),
        ('back call', 'device.c', '/**\n * xr_device_snapshot',
         'static void xr_device_poke(void)\n{\n'
         '\txr_nl_dump_end(NULL, 0);\n}\n\n'),
        ('header layer', 'sendq.h', '#include "ep.h"',
         '#include "svc.h"\n'),
        ('unplaced header', 'extra.h', None, '/* a new header */\n'),
        ('role', 'svc_send.c', '#include "svc.h"', '#include "xprt.h"\n'),
        ('role by angle include', 'svc_send.c', '#include "svc.h"',
         '# include <trace_xprt.h>\n'),
        ('shared layer', 'stats.c', '#include "stats.h"', '#include "svc.h"\n'),
        ('size', 'registry.h', '#endif', '/* */\n' * 300),
        ('cycle', 'nl_device.c', 'static int xr_nl_put_port',
         'void xr_nl_notify_loop(void)\n{\n\txr_device_loop();\n}\n\n'),
    ]
    ok = True
    base = set(check(moddir))
    for what, fname, anchor, text in cases:
        tmp = tempfile.mkdtemp()
        try:
            copy = os.path.join(tmp, 'module')
            shutil.copytree(moddir, copy)
            plant(copy, fname, anchor, text)
            if what == 'cycle':
                plant(copy, 'device.c', '/**\n * xr_device_snapshot',
                      'void xr_device_loop(void)\n{\n'
                      '\txr_nl_notify_loop();\n}\n\n')
            if not set(check(copy)) - base:
                print('selftest: a planted %s violation was not caught'
                      % what)
                ok = False
        finally:
            shutil.rmtree(tmp)
    return ok


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    moddir = os.path.join(top, 'module')
    if '--selftest' in sys.argv[1:] and not selftest(moddir):
        return 1
    errors = check(moddir)
    for e in errors:
        print(e)
    if errors:
        return 1
    print('layering: headers by layer; netlink formats copies only; no call '
          'cycle through it')
    return 0


if __name__ == '__main__':
    sys.exit(main())
