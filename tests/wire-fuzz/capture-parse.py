#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# capture-parse.py - the wire fuzzer's captured seed corpus, part two:
# takes the RPC-over-RDMA calls an NFS client sent out of a RoCE v2
# capture (the pcap tests/wire-fuzz/capture.sh records) and writes one
# corpus file per kind of call.
#
#   capture-parse.py [--client ADDR] [--out DIR] CAPTURE.pcap
#
# The capture is read here with no library: pcap records of Ethernet
# frames, IPv4, UDP to port 4791, then the InfiniBand Base Transport
# Header (IBA 9.2) and the payload, less its pad bytes and the 4-byte
# invariant CRC. The Sends of each reliable-connected queue pair are put
# back together from their FIRST/MIDDLE/LAST packets in PSN order
# (retransmitted packets dropped); every Send from the client address is
# one RPC-over-RDMA message (RFC 8166). A call that went by a position-zero
# Read chunk (RDMA_NOMSG) is named after the RPC call the server fetched
# with RDMA Read, found through the Read Request naming that segment.
#
# Calls are told apart by their RPC-over-RDMA procedure, Read segments
# (and whether one is at position zero), Write chunks and Reply chunk,
# and by NFS version and procedure (for NFSv4, the first operation of the
# COMPOUND after SEQUENCE and the file-handle operations). The first call
# of each kind is written as it went on the wire, header and RPC call,
# into DIR (emptied first), named like v3-write-read-chunk. Replies the
# client sent on the backchannel are not calls and are left out.

import argparse
import os
import struct
import sys
from collections import OrderedDict

ROCE_PORT = 4791
PSN_MOD = 1 << 24

# IBA RC opcodes (the low five bits; RC's transport bits are 000).
SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_LAST_IMM = 0x00, 0x01, 0x02, 0x03
SEND_ONLY, SEND_ONLY_IMM = 0x04, 0x05
READ_REQUEST = 0x0c
READ_RESP_FIRST, READ_RESP_MIDDLE, READ_RESP_LAST, READ_RESP_ONLY = 0x0d, 0x0e, 0x0f, 0x10
SEND_LAST_INV, SEND_ONLY_INV = 0x16, 0x17
# Bytes of extension headers after the BTH, per opcode.
EXT_LEN = {SEND_LAST_IMM: 4, SEND_ONLY_IMM: 4, SEND_LAST_INV: 4, SEND_ONLY_INV: 4,
           READ_REQUEST: 16, READ_RESP_FIRST: 4, READ_RESP_LAST: 4, READ_RESP_ONLY: 4}
SEND_STARTS = {SEND_FIRST}
SEND_MIDS = {SEND_MIDDLE}
SEND_ENDS = {SEND_LAST, SEND_LAST_IMM, SEND_LAST_INV}
SEND_ONLYS = {SEND_ONLY, SEND_ONLY_IMM, SEND_ONLY_INV}

RDMA_PROCS = {0: 'msg', 1: 'nomsg', 2: 'msgp', 3: 'done', 4: 'error'}
NFS_PROG, NFSACL_PROG = 100003, 100227
NFSACL_PROCS = ['null', 'getacl', 'setacl']
NFS3_PROCS = ['null', 'getattr', 'setattr', 'lookup', 'access', 'readlink', 'read',
              'write', 'create', 'mkdir', 'symlink', 'mknod', 'remove', 'rmdir',
              'rename', 'link', 'readdir', 'readdirplus', 'fsstat', 'fsinfo',
              'pathconf', 'commit']
NFS4_OPS = {
    3: 'access', 4: 'close', 5: 'commit', 6: 'create', 7: 'delegpurge',
    8: 'delegreturn', 9: 'getattr', 10: 'getfh', 11: 'link', 12: 'lock', 13: 'lockt',
    14: 'locku', 15: 'lookup', 16: 'lookupp', 17: 'nverify', 18: 'open',
    19: 'openattr', 20: 'open-confirm', 21: 'open-downgrade', 22: 'putfh',
    23: 'putpubfh', 24: 'putrootfh', 25: 'read', 26: 'readdir', 27: 'readlink',
    28: 'remove', 29: 'rename', 30: 'renew', 31: 'restorefh', 32: 'savefh',
    33: 'secinfo', 34: 'setattr', 35: 'setclientid', 36: 'setclientid-confirm',
    37: 'verify', 38: 'write', 39: 'release-lockowner', 40: 'backchannel-ctl',
    41: 'bind-conn-to-session', 42: 'exchange-id', 43: 'create-session',
    44: 'destroy-session', 45: 'free-stateid', 46: 'get-dir-delegation',
    47: 'getdeviceinfo', 48: 'getdevicelist', 49: 'layoutcommit', 50: 'layoutget',
    51: 'layoutreturn', 52: 'secinfo-no-name', 53: 'sequence', 54: 'set-ssv',
    55: 'test-stateid', 56: 'want-delegation', 57: 'destroy-clientid',
    58: 'reclaim-complete', 59: 'allocate', 60: 'copy', 61: 'copy-notify',
    62: 'deallocate', 63: 'io-advise', 64: 'layouterror', 65: 'layoutstats',
    66: 'offload-cancel', 67: 'offload-status', 68: 'read-plus', 69: 'seek',
    70: 'write-same', 71: 'clone', 72: 'getxattr', 73: 'setxattr',
    74: 'listxattrs', 75: 'removexattr'}
# NFSv4 operations that only set up the one that names the call: how many
# argument bytes each has before the next operation (None: a file handle).
NFS4_PREFIX_OPS = {53: 32, 22: None, 24: 0, 23: 0, 32: 0, 31: 0}


class Short(Exception):
    pass


def u32(b, off):
    if off + 4 > len(b):
        raise Short()
    return struct.unpack_from('>I', b, off)[0], off + 4


def opaque(b, off):
    n, off = u32(b, off)
    end = off + (n + 3) // 4 * 4
    if end > len(b):
        raise Short()
    return b[off:off + n], end


def pcap_records(data):
    """(time, frame) for each record of a pcap file."""
    if len(data) < 24:
        raise ValueError('not a pcap file: too short')
    magic = data[:4]
    if magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        endian = '>'
    elif magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        endian = '<'
    else:
        raise ValueError('not a pcap file (pcapng is not read here)')
    nano = magic in (b'\xa1\xb2\x3c\x4d', b'\x4d\x3c\xb2\xa1')
    linktype = struct.unpack_from(endian + 'I', data, 20)[0]
    if linktype != 1:
        raise ValueError('link type %d, not Ethernet' % linktype)
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack_from(endian + 'IIII', data, off)
        off += 16
        if off + incl > len(data):
            break  # cut short: the capture was stopped mid-record
        yield sec + frac / (1e9 if nano else 1e6), data[off:off + incl]
        off += incl


class Packet:
    __slots__ = ('time', 'src', 'dst', 'opcode', 'qp', 'psn', 'ext', 'payload')


def roce_packet(t, frame):
    """A Packet for a RoCE v2 RC frame, else None."""
    off, etype = 12, None
    while off + 2 <= len(frame):
        etype = struct.unpack_from('>H', frame, off)[0]
        if etype != 0x8100:  # skip VLAN tags
            break
        off += 4
    off += 2
    if etype != 0x0800 or off + 20 > len(frame):
        return None
    ihl = (frame[off] & 0x0f) * 4
    total = struct.unpack_from('>H', frame, off + 2)[0]
    if frame[off + 9] != 17 or ihl < 20:
        return None
    src, dst = frame[off + 12:off + 16], frame[off + 16:off + 20]
    ip_end = min(off + total, len(frame))
    udp = off + ihl
    if udp + 8 > ip_end or struct.unpack_from('>H', frame, udp + 2)[0] != ROCE_PORT:
        return None
    bth = udp + 8
    if bth + 12 + 4 > ip_end:
        return None
    opcode = frame[bth]
    if opcode >> 5 != 0:  # not RC (the connection manager's UD MADs)
        return None
    p = Packet()
    p.time = t
    p.src, p.dst = '.'.join(map(str, src)), '.'.join(map(str, dst))
    p.opcode = opcode & 0x1f
    pad = (frame[bth + 1] >> 4) & 3
    p.qp = int.from_bytes(frame[bth + 5:bth + 8], 'big')
    p.psn = int.from_bytes(frame[bth + 9:bth + 12], 'big')
    ext = bth + 12
    body = ext + EXT_LEN.get(p.opcode, 0)
    end = ip_end - 4 - pad  # the ICRC, then the pad before it
    if body > end:
        return None
    p.ext = frame[ext:body]
    p.payload = frame[body:end]
    return p


def psn_after(a, b):
    """a is later than b in the 24-bit PSN space."""
    d = (a - b) % PSN_MOD
    return 0 < d < PSN_MOD // 2


def sends(packets, src):
    """The Sends from address src, put back together, in time order."""
    flows = {}
    out = []
    for p in packets:
        if p.src != src:
            continue
        if p.opcode not in SEND_STARTS | SEND_MIDS | SEND_ENDS | SEND_ONLYS:
            continue
        f = flows.setdefault((p.dst, p.qp), {'next': None, 'buf': None})
        if f['next'] is not None and p.psn != f['next']:
            if not psn_after(p.psn, f['next']):
                continue  # a retransmission of what we already have
            f['buf'] = None  # a gap: the capture lost packets
        f['next'] = (p.psn + 1) % PSN_MOD
        if p.opcode in SEND_ONLYS:
            out.append((p.time, bytes(p.payload)))
            f['buf'] = None
        elif p.opcode in SEND_STARTS:
            f['buf'] = bytearray(p.payload)
        elif f['buf'] is not None:
            f['buf'] += p.payload
            if p.opcode in SEND_ENDS:
                out.append((p.time, bytes(f['buf'])))
                f['buf'] = None
    return out


def rdma_reads(packets, client):
    """{(rkey, address): bytes} the client returned to each RDMA Read."""
    responses = {}
    for p in packets:
        if p.src == client and READ_RESP_FIRST <= p.opcode <= READ_RESP_ONLY:
            responses.setdefault(p.psn, []).append(p)
    out = {}
    for p in packets:
        if p.dst != client or p.opcode != READ_REQUEST:
            continue
        va, rkey, length = struct.unpack('>QII', p.ext)
        data, psn = bytearray(), p.psn
        while True:
            later = [r for r in responses.get(psn, []) if r.time >= p.time]
            if not later:
                break
            r = later[0]
            data += r.payload
            if r.opcode in (READ_RESP_LAST, READ_RESP_ONLY):
                out.setdefault((rkey, va), bytes(data[:length]))
                break
            psn = (psn + 1) % PSN_MOD
    return out


def segment(b, off):
    handle, length, offset = struct.unpack_from('>IIQ', b, off)
    return (handle, length, offset), off + 16


def rdma_header(msg):
    """(xid, proc, reads, writes, reply, body) of an RPC-over-RDMA header."""
    xid, off = u32(msg, 0)
    vers, off = u32(msg, off)
    _, off = u32(msg, off)
    proc, off = u32(msg, off)
    if vers != 1 or proc not in (0, 1):
        return None
    reads, writes, reply = [], [], None
    while True:
        more, off = u32(msg, off)
        if not more:
            break
        pos, off = u32(msg, off)
        if off + 16 > len(msg):
            raise Short()
        seg, off = segment(msg, off)
        reads.append((pos, seg))
    while True:
        more, off = u32(msg, off)
        if not more:
            break
        n, off = u32(msg, off)
        if off + 16 * n > len(msg):
            raise Short()
        chunk = []
        for _ in range(n):
            seg, off = segment(msg, off)
            chunk.append(seg)
        writes.append(chunk)
    more, off = u32(msg, off)
    if more:
        n, off = u32(msg, off)
        if off + 16 * n > len(msg):
            raise Short()
        reply = []
        for _ in range(n):
            seg, off = segment(msg, off)
            reply.append(seg)
    return xid, proc, reads, writes, reply, msg[off:]


def nfs4_op(args):
    """The COMPOUND's minor version and its first operation that is not
    SEQUENCE or a file-handle operation."""
    _, off = opaque(args, 0)  # tag
    minor, off = u32(args, off)
    nops, off = u32(args, off)
    name = 'compound-empty'
    for _ in range(nops):
        op, off = u32(args, off)
        if op not in NFS4_PREFIX_OPS:
            name = NFS4_OPS.get(op, 'op%d' % op)
            break
        skip = NFS4_PREFIX_OPS[op]
        if skip is None:
            _, off = opaque(args, off)
        else:
            off += skip
        name = NFS4_OPS[op]
    return minor, name


def rpc_call_name(call):
    """'v3-write', 'v41-open', ... for an RPC call; None for a reply."""
    _, off = u32(call, 0)
    mtype, off = u32(call, off)
    if mtype != 0:
        return None
    _, off = u32(call, off)  # RPC version
    prog, off = u32(call, off)
    vers, off = u32(call, off)
    proc, off = u32(call, off)
    for _ in range(2):  # credential, verifier
        _, off = u32(call, off)
        _, off = opaque(call, off)
    if prog == NFSACL_PROG and proc < len(NFSACL_PROCS):
        return 'v%dacl-%s' % (vers, NFSACL_PROCS[proc])
    if prog != NFS_PROG:
        return 'prog%d-v%d-proc%d' % (prog, vers, proc)
    if vers == 3:
        return 'v3-' + (NFS3_PROCS[proc] if proc < len(NFS3_PROCS) else 'proc%d' % proc)
    if vers == 4:
        if proc == 0:
            return 'v4-null'
        minor, op = nfs4_op(call[off:])
        return 'v4%d-%s' % (minor, op) if minor else 'v4-' + op
    return 'v%d-proc%d' % (vers, proc)


def shape(proc, reads, writes, reply):
    parts = []
    if proc == 1:
        parts.append('nomsg')
    if reads:
        pos0 = any(pos == 0 for pos, _ in reads)
        parts.append('pos0-read' if pos0 else 'read-chunk')
        if len(reads) > 1:
            parts.append('%dseg' % len(reads))
    if writes:
        parts.append('write-list')
        n = sum(len(c) for c in writes)
        if len(writes) > 1 or n > 1:
            parts.append('%dchunk-%dseg' % (len(writes), n))
    if reply is not None:
        parts.append('reply-chunk')
        if len(reply) > 1:
            parts.append('%dseg' % len(reply))
    return '-'.join(parts) or 'inline'


def main():
    ap = argparse.ArgumentParser(description='the calls a client sent, from a RoCE v2 capture')
    ap.add_argument('--client', default='10.99.0.2', help="the client's IPv4 address")
    ap.add_argument('--out', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  'corpus', 'captured'))
    ap.add_argument('pcap')
    a = ap.parse_args()

    with open(a.pcap, 'rb') as f:
        data = f.read()
    packets = [p for p in (roce_packet(t, fr) for t, fr in pcap_records(data)) if p]
    fetched = rdma_reads(packets, a.client)
    kinds = OrderedDict()
    counts = {}
    total = replies = bad = 0
    for _, msg in sends(packets, a.client):
        total += 1
        try:
            hdr = rdma_header(msg)
            if hdr is None:
                bad += 1
                continue
            _, proc, reads, writes, reply, body = hdr
            if proc == 1:
                pos0 = [seg for pos, seg in reads if pos == 0]
                call = fetched.get((pos0[0][0], pos0[0][2])) if pos0 else None
                try:
                    name = rpc_call_name(call) if call else 'unknown'
                except Short:
                    name = 'unknown'
            else:
                name = rpc_call_name(body)
        except Short:
            bad += 1
            continue
        if name is None:
            replies += 1
            continue
        key = '%s-%s' % (name, shape(proc, reads, writes, reply))
        counts[key] = counts.get(key, 0) + 1
        kinds.setdefault(key, msg)

    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        os.unlink(os.path.join(a.out, old))
    for key, msg in kinds.items():
        with open(os.path.join(a.out, key), 'wb') as f:
            f.write(msg)
    print('%d packets, %d messages from %s: %d calls, %d backchannel replies, '
          '%d not understood; %d kinds written to %s' %
          (len(packets), total, a.client, total - replies - bad, replies, bad,
           len(kinds), a.out))
    for key in sorted(kinds):
        print('  %6d  %s' % (counts[key], key))
    return 0 if kinds else 1


if __name__ == '__main__':
    sys.exit(main())
