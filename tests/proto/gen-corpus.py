#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# gen-corpus.py - write the fuzzer's seed corpus (tests/proto/corpus/):
# small valid transport headers of each procedure, a few near misses, and
# RFC 8797 private data. The headers are packed here by hand, not by the
# encoder under test. Run it again after changing it and commit the files.
import os
import struct

XID = 0x0a0b0c0d
MSG, NOMSG, MSGP, DONE, ERROR = range(5)


def w(*words):
    return struct.pack('>%dI' % len(words), *words)


def fixed(proc, vers=1, xid=XID, credits=32):
    return w(xid, vers, credits, proc)


def seg(handle, length, offset):
    return w(handle, length, offset >> 32, offset & 0xffffffff)


def read(pos, handle, length, offset):
    return w(1, pos) + seg(handle, length, offset)


def chunk(*segs):
    return w(len(segs)) + b''.join(seg(*s) for s in segs)


def write(*segs):
    return w(1) + chunk(*segs)


END = w(0)
RPC = w(XID, 0, 2, 100003, 3, 6)  # the start of an NFSv3 READ call

SEEDS = {
    'msg': fixed(MSG) + END + END + END + RPC,
    'msg-read-chunk': fixed(MSG) + read(128, 1, 4096, 0x10000)
    + read(128, 2, 4096, 0x20000) + END + END + END + RPC,
    'nomsg-pos0-read': fixed(NOMSG) + read(0, 1, 300, 0x1000)
    + read(64, 2, 8192, 0x2000) + END + END + w(1) + chunk((3, 4096, 0)),
    'msg-write-list': fixed(MSG) + END + write((1, 4096, 0x1000))
    + write((2, 8192, 0x2000), (3, 4, 0x3000)) + END + END + RPC,
    'msg-reply-chunk': fixed(MSG) + END + END
    + w(1) + chunk((1, 4096, 0x1000), (2, 4096, 0x2000)) + RPC,
    'reply-msg-write': fixed(MSG) + END + write((1, 100, 0x1000),
                                                (2, 0, 0x2000))
    + w(1) + chunk() + END + END + RPC,
    'reply-nomsg': fixed(NOMSG) + END + END + w(1) + chunk((1, 900, 0)),
    'err-vers': fixed(ERROR) + w(1, 1, 1),
    'err-chunk': fixed(ERROR) + w(2),
    'vers-2': fixed(MSG, vers=2) + END + END + END + RPC,
    'msgp': fixed(MSGP) + w(4, 1024) + END + END + END + RPC,
    'short': fixed(MSG)[:12],
    'cm-pdata': w(0xf6ab0e18) + bytes([1, 1, 3, 3]),
    'cm-pdata-ib-padded': w(0xf6ab0e18) + bytes([1, 0, 0, 255])
    + bytes(84),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')
os.makedirs(out, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
