#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# gen-corpus.py - write the wire fuzzer's synthesized seed corpus
# (tests/wire-fuzz/corpus/synthesized):
# whole RPC-over-RDMA calls (transport header and NFS call) in the shapes
# the kernel's own NFS client sends over its RDMA transport: small calls
# inline in RDMA_MSG; NFS READ with the data's place in a Write list;
# NFS WRITE with the data in a Read chunk at the XDR position where it
# would have been inline; READDIR with a Reply chunk; and a call too big
# to send inline, whole in a position-zero Read chunk under RDMA_NOMSG.
# NFSv3 and NFSv4.1 (SEQUENCE first in each COMPOUND), AUTH_SYS.
#
# These are made here from the protocol specifications (RFC 1813, RFC
# 8881, RFC 5531, RFC 8166), not captured from a running client: file
# handles, stateids and session IDs are made up, so the server answers
# most with NFS errors, which is fine for a fuzzer that looks at the
# transport. Chunk handles are made up too; the fuzzer replaces most of
# them with its own registered region. Run it again after changing it and
# commit the files. The seeds captured from a real client are in
# corpus/captured (capture.sh, capture-parse.py); these stay beside them
# for shapes a capture may not have, such as a Reply chunk beside a
# position-zero Read chunk.
import os
import struct

MSG, NOMSG = 0, 1
CREDITS = 128  # what the in-kernel client asks for


def w(*words):
    return struct.pack('>%dI' % len(words), *words)


def opaque(data):
    pad = (4 - len(data) % 4) % 4
    return w(len(data)) + data + bytes(pad)


def hyper(v):
    return w(v >> 32, v & 0xffffffff)


def seg(handle, length, offset):
    return w(handle, length) + hyper(offset)


def auth_sys():
    body = w(0x5f5e100) + opaque(b'client') + w(0, 0) + w(1, 0)
    return w(1) + opaque(body) + w(0, 0)  # credential, AUTH_NONE verifier


def rpc_call(xid, prog, vers, proc, args, auth=True):
    cred = auth_sys() if auth else w(0, 0, 0, 0)
    return w(xid, 0, 2, prog, vers, proc) + cred + args


def nfs3(xid, proc, args, auth=True):
    return rpc_call(xid, 100003, 3, proc, args, auth)


def compound(xid, ops):
    args = opaque(b'') + w(1, len(ops)) + b''.join(ops)  # tag, minorversion 1
    return rpc_call(xid, 100003, 4, 1, args)


FH3 = opaque(bytes(range(1, 29)))
FH4 = bytes(range(40, 72))
SESSION = bytes(range(16))
STATEID = w(1) + bytes(range(100, 112))


def sequence(slot=0, seq=1):
    return w(53) + SESSION + w(seq, slot, 15, 0)


def putfh():
    return w(22) + opaque(FH4)


def getattr4():
    return w(9) + w(2, 0x0010011a, 0x00b0a23a)


def header(xid, proc, reads=(), writes=(), reply=None):
    out = w(xid, 1, CREDITS, proc)
    for pos, handle, length, offset in reads:
        out += w(1, pos) + seg(handle, length, offset)
    out += w(0)
    for chunk in writes:
        out += w(1, len(chunk)) + b''.join(seg(*s) for s in chunk)
    out += w(0)
    if reply is None:
        out += w(0)
    else:
        out += w(1, len(reply)) + b''.join(seg(*s) for s in reply)
    return out


def inline(xid, call, writes=(), reply=None):
    return header(xid, MSG, writes=writes, reply=reply) + call


def with_read_chunk(xid, head, length, tail=b''):
    """The data of a WRITE moved to a Read chunk: its position is where
    the data would start in the call; the rest of the call follows it
    inline (the data's XDR padding is in neither)."""
    return header(xid, MSG, reads=[(len(head), 0x101, length, 0x100000)]) + head + tail


SEEDS = {}


def seed(name, data):
    SEEDS[name] = data


X = 0x5eed0000
seed('v3-null', inline(X + 1, nfs3(X + 1, 0, b'', auth=False)))
seed('v3-getattr', inline(X + 2, nfs3(X + 2, 1, FH3)))
seed('v3-lookup', inline(X + 3, nfs3(X + 3, 3, FH3 + opaque(b'file.txt'))))
seed('v3-access', inline(X + 4, nfs3(X + 4, 4, FH3 + w(0x3f))))
seed('v3-fsinfo', inline(X + 5, nfs3(X + 5, 19, FH3)))
seed('v3-read-write-list',
     inline(X + 6, nfs3(X + 6, 6, FH3 + hyper(0) + w(65536)),
            writes=[[(0x201, 65536, 0x200000)]]))
seed('v3-read-two-segments',
     inline(X + 7, nfs3(X + 7, 6, FH3 + hyper(1 << 20) + w(8192)),
            writes=[[(0x202, 4096, 0x210000), (0x203, 4096, 0x220000)]]))
write3 = nfs3(X + 8, 7, FH3 + hyper(4096) + w(65536, 2)) + w(65536)
seed('v3-write-read-chunk', with_read_chunk(X + 8, write3, 65536))
small_write = nfs3(X + 9, 7, FH3 + hyper(0) + w(100, 0)) + w(100)
seed('v3-write-inline', inline(X + 9, small_write + bytes(100)))
seed('v3-readdir-reply-chunk',
     inline(X + 10, nfs3(X + 10, 16, FH3 + hyper(0) + bytes(8) + w(32768)),
            reply=[(0x301, 32768, 0x300000)]))
seed('v3-readdirplus-reply-chunk',
     inline(X + 11, nfs3(X + 11, 17, FH3 + hyper(0) + bytes(8) + w(8192, 32768)),
            reply=[(0x302, 16384, 0x310000), (0x303, 16384, 0x320000)]))
seed('v4-null', inline(X + 12, rpc_call(X + 12, 100003, 4, 0, b'', auth=False)))
seed('v4-getattr', inline(X + 13, compound(X + 13, [sequence(), putfh(), getattr4()])))
seed('v4-read-write-list',
     inline(X + 14, compound(X + 14, [sequence(0, 2), putfh(),
                                      w(25) + STATEID + hyper(0) + w(65536)]),
            writes=[[(0x401, 65536, 0x400000)]]))
write4 = compound(X + 15, [sequence(0, 3), putfh(),
                           w(38) + STATEID + hyper(0) + w(2) + w(65536)])
seed('v4-write-read-chunk', with_read_chunk(X + 15, write4, 65536, getattr4()))
seed('v4-readdir-reply-chunk',
     inline(X + 16, compound(X + 16, [sequence(0, 4), putfh(),
                                      w(26) + hyper(0) + bytes(8) + w(8192, 32768)
                                      + w(2, 0x0010011a, 0x00b0a23a)]),
            reply=[(0x501, 32768, 0x500000)]))
# A call longer than the inline threshold (an NFSv4.1 SETATTR of a long
# ACL) goes whole in a position-zero Read chunk; nothing follows the
# header. The fuzzer fills its region with calls for such chunks to read.
seed('v4-nomsg-pos0-read', header(X + 17, NOMSG, reads=[(0, 0x601, 6144, 0x600000)]))
seed('v3-nomsg-pos0-read-reply-chunk',
     header(X + 18, NOMSG, reads=[(0, 0x602, 5000, 0x610000)],
            reply=[(0x603, 4096, 0x620000)]))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'synthesized')
os.makedirs(out, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
