// SPDX-License-Identifier: GPL-2.0
//
// Unit tests for module/proto*.c: transport headers are built word by word
// here (an encoder independent of the one under test), decoded field by
// field, cut short at every byte, pushed one past every limit, and
// re-encoded; the encoders are given every buffer size that is too small.

#include <endian.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "proto.h"
}

namespace {

constexpr uint32_t kXid = 0x12345678;
constexpr uint32_t kCredits = 32;

struct Seg {
	uint32_t handle;
	uint32_t length;
	uint64_t offset;
};

// An RPC-over-RDMA header written one XDR word at a time.
class Wire {
public:
	Wire &u32(uint32_t v)
	{
		words_.push_back(htobe32(v));
		return *this;
	}
	Wire &fixed(uint32_t proc, uint32_t vers = 1, uint32_t xid = kXid)
	{
		return u32(xid).u32(vers).u32(kCredits).u32(proc);
	}
	Wire &seg(const Seg &s)
	{
		return u32(s.handle).u32(s.length)
			.u32(uint32_t(s.offset >> 32)).u32(uint32_t(s.offset));
	}
	Wire &read(uint32_t pos, const Seg &s)
	{
		return u32(1).u32(pos).seg(s);
	}
	Wire &chunk(std::initializer_list<Seg> segs)
	{
		u32(uint32_t(segs.size()));
		for (const Seg &s : segs)
			seg(s);
		return *this;
	}
	Wire &write(std::initializer_list<Seg> segs)
	{
		return u32(1).chunk(segs);
	}
	Wire &end() { return u32(0); }
	// The RPC message of an RDMA_MSG starts with the same XID.
	Wire &payload(uint32_t extra_words = 1)
	{
		u32(kXid);
		for (uint32_t i = 0; i < extra_words; i++)
			u32(0xdead0000 + i);
		return *this;
	}
	size_t size() const { return words_.size() * 4; }
	const uint8_t *bytes() const
	{
		return reinterpret_cast<const uint8_t *>(words_.data());
	}

private:
	std::vector<uint32_t> words_;
};

// A header with storage for the largest lists, copied with its lists.
struct HdrBuf : xr_hdr {
	xr_write_chunk writes[XR_MAX_WRITE_CHUNKS];
	xr_read_seg reads[XR_MAX_SEGS];
	xr_seg segs[XR_MAX_SEGS];

	HdrBuf()
	{
		memset(static_cast<xr_hdr *>(this), 0, sizeof(xr_hdr));
		memset(writes, 0, sizeof(writes));
		memset(reads, 0, sizeof(reads));
		memset(segs, 0, sizeof(segs));
		xr_hdr_attach(this, writes, XR_MAX_WRITE_CHUNKS, reads,
			      XR_MAX_SEGS, segs, XR_MAX_SEGS);
	}
	HdrBuf(const HdrBuf &o) : xr_hdr() { *this = o; }
	HdrBuf &operator=(const HdrBuf &o)
	{
		memcpy(static_cast<xr_hdr *>(this), static_cast<const xr_hdr *>(&o),
		       sizeof(xr_hdr));
		memcpy(writes, o.writes, sizeof(writes));
		memcpy(reads, o.reads, sizeof(reads));
		memcpy(segs, o.segs, sizeof(segs));
		hd_writes = writes;
		hd_reads = reads;
		hd_segs = segs;
		return *this;
	}
};

xr_limits Lim(uint32_t flags = 0)
{
	xr_limits lim = {};

	lim.lm_max_read_segs = 16;
	lim.lm_max_write_chunks = 4;
	lim.lm_max_chunk_segs = 16;
	lim.lm_max_segs = 32;
	lim.lm_max_chunk_len = 1 << 20;
	lim.lm_flags = flags;
	return lim;
}

xr_limits Loose(uint32_t flags = 0)
{
	xr_limits lim = {};

	lim.lm_max_read_segs = XR_MAX_SEGS;
	lim.lm_max_write_chunks = XR_MAX_WRITE_CHUNKS;
	lim.lm_max_chunk_segs = XR_MAX_SEGS;
	lim.lm_max_segs = XR_MAX_SEGS;
	lim.lm_max_chunk_len = UINT32_MAX;
	lim.lm_flags = flags;
	return lim;
}

// Decode the first @len bytes from a buffer of exactly that size, so
// AddressSanitizer catches any read past the end.
int Decode(const Wire &w, size_t len, const xr_limits &lim, xr_hdr *hdr)
{
	std::unique_ptr<uint8_t[]> buf(new uint8_t[len ? len : 1]);

	if (len)
		memcpy(buf.get(), w.bytes(), len);
	return xr_hdr_decode(buf.get(), len, &lim, hdr);
}

int Decode(const Wire &w, const xr_limits &lim, xr_hdr *hdr)
{
	return Decode(w, w.size(), lim, hdr);
}

void ExpectSeg(const xr_seg &got, const Seg &want)
{
	EXPECT_EQ(got.sg_handle, want.handle);
	EXPECT_EQ(got.sg_length, want.length);
	EXPECT_EQ(got.sg_offset, want.offset);
}

const Seg kA = {0x11, 4096, 0x0000000100002000ULL};
const Seg kB = {0x22, 8192, 0xffff880012340000ULL};
const Seg kC = {0x33, 100, 0x42};
const Seg kD = {0x44, 1, 0x8000000000000000ULL};

// ---- valid headers, field by field -------------------------------------

TEST(Decode, MsgNoChunks)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().end().end().payload(3);
	HdrBuf hdr;
	xr_limits lim = Lim();

	ASSERT_EQ(Decode(w, lim, &hdr), 0);
	EXPECT_EQ(hdr.hd_xid, htobe32(kXid));
	EXPECT_EQ(hdr.hd_vers, 1u);
	EXPECT_EQ(hdr.hd_credits, kCredits);
	EXPECT_EQ(hdr.hd_proc, uint32_t(XR_RDMA_MSG));
	EXPECT_EQ(hdr.hd_flags, uint32_t(XR_HDR_XID));
	EXPECT_EQ(hdr.hd_hdr_len, uint32_t(XR_HDR_MIN_SIZE));
	EXPECT_EQ(hdr.hd_nreads, 0u);
	EXPECT_EQ(hdr.hd_nwrites, 0u);
	EXPECT_EQ(hdr.hd_nsegs, 0u);
	EXPECT_EQ(xr_read_chunk_count(&hdr), 0u);
	EXPECT_FALSE(xr_read_has_pos_zero(&hdr));
}

TEST(Decode, MsgMinimalPayloadIsTheXid)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().end().end().payload(0);
	HdrBuf hdr;

	EXPECT_EQ(Decode(w, Lim(), &hdr), 0);
	EXPECT_EQ(hdr.hd_hdr_len, 28u);
}

TEST(Decode, ReadListOneChunk)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).read(128, kA).read(128, kB).end().end().end()
		.payload();
	HdrBuf hdr;
	xr_read_chunk rc;

	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
	ASSERT_EQ(hdr.hd_nreads, 2u);
	EXPECT_EQ(hdr.hd_reads[0].rs_position, 128u);
	ExpectSeg(hdr.hd_reads[0].rs_seg, kA);
	EXPECT_EQ(hdr.hd_reads[1].rs_position, 128u);
	ExpectSeg(hdr.hd_reads[1].rs_seg, kB);
	EXPECT_EQ(hdr.hd_hdr_len, 16u + 2 * 24 + 12);
	EXPECT_EQ(xr_read_chunk_count(&hdr), 1u);
	EXPECT_FALSE(xr_read_has_pos_zero(&hdr));
	ASSERT_EQ(xr_read_chunk_get(&hdr, 0, &rc), 0);
	EXPECT_EQ(rc.rc_position, 128u);
	EXPECT_EQ(rc.rc_first, 0u);
	EXPECT_EQ(rc.rc_nsegs, 2u);
	EXPECT_EQ(rc.rc_length, kA.length + kB.length);
	EXPECT_EQ(xr_read_chunk_get(&hdr, 1, &rc), -ENOENT);
}

TEST(Decode, ReadListSeveralChunksWithPositionZero)
{
	// A long call (position zero) that also carries two data items.
	Wire w;
	w.fixed(XR_RDMA_NOMSG).read(0, kC).read(0, kC).read(64, kA)
		.read(8192, kC).read(8192, kD).end().end().end();
	HdrBuf hdr;
	xr_read_chunk rc;

	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
	EXPECT_EQ(hdr.hd_proc, uint32_t(XR_RDMA_NOMSG));
	EXPECT_EQ(hdr.hd_nreads, 5u);
	EXPECT_EQ(hdr.hd_hdr_len, w.size());
	EXPECT_EQ(xr_read_chunk_count(&hdr), 3u);
	EXPECT_TRUE(xr_read_has_pos_zero(&hdr));

	ASSERT_EQ(xr_read_chunk_get(&hdr, 0, &rc), 0);
	EXPECT_EQ(rc.rc_position, 0u);
	EXPECT_EQ(rc.rc_first, 0u);
	EXPECT_EQ(rc.rc_nsegs, 2u);
	EXPECT_EQ(rc.rc_length, 200u);
	ASSERT_EQ(xr_read_chunk_get(&hdr, 1, &rc), 0);
	EXPECT_EQ(rc.rc_position, 64u);
	EXPECT_EQ(rc.rc_first, 2u);
	EXPECT_EQ(rc.rc_nsegs, 1u);
	EXPECT_EQ(rc.rc_length, 4096u);
	ASSERT_EQ(xr_read_chunk_get(&hdr, 2, &rc), 0);
	EXPECT_EQ(rc.rc_position, 8192u);
	EXPECT_EQ(rc.rc_first, 3u);
	EXPECT_EQ(rc.rc_nsegs, 2u);
	EXPECT_EQ(rc.rc_length, 101u);
	EXPECT_EQ(xr_read_chunk_get(&hdr, 3, &rc), -ENOENT);
}

TEST(Decode, ReadChunksMayTouchButNotOverlap)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).read(100 * 4, {1, 400, 0}).read(200 * 4, kC)
		.end().end().end().payload();
	HdrBuf hdr;

	EXPECT_EQ(Decode(w, Lim(), &hdr), 0);
}

TEST(Decode, WriteListOneToThreeChunks)
{
	const Seg segs[] = {kA, kB, kC, kD, kA, kB};

	for (uint32_t nchunks = 1; nchunks <= 3; nchunks++) {
		SCOPED_TRACE("chunks " + std::to_string(nchunks));
		Wire w;
		uint32_t want_segs = 0;

		w.fixed(XR_RDMA_MSG).end();
		// chunk i has i + 1 segments
		for (uint32_t i = 0; i < nchunks; i++) {
			w.u32(1).u32(i + 1);
			for (uint32_t s = 0; s <= i; s++)
				w.seg(segs[want_segs + s]);
			want_segs += i + 1;
		}
		w.end().end().payload();

		HdrBuf hdr;
		ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
		ASSERT_EQ(hdr.hd_nwrites, nchunks);
		ASSERT_EQ(hdr.hd_nsegs, want_segs);
		EXPECT_EQ(hdr.hd_hdr_len, w.size() - 8);
		EXPECT_FALSE(hdr.hd_flags & XR_HDR_REPLY_CHUNK);
		uint32_t first = 0;
		for (uint32_t i = 0; i < nchunks; i++) {
			EXPECT_EQ(hdr.hd_writes[i].wc_first, first);
			EXPECT_EQ(hdr.hd_writes[i].wc_nsegs, i + 1);
			first += i + 1;
		}
		for (uint32_t s = 0; s < want_segs; s++)
			ExpectSeg(hdr.hd_segs[s], segs[s]);
	}
}

TEST(Decode, ReplyChunkWithMsg)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().write({kA}).end().u32(1).chunk({kB, kC})
		.payload();
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
	EXPECT_EQ(hdr.hd_nwrites, 1u);
	ASSERT_TRUE(hdr.hd_flags & XR_HDR_REPLY_CHUNK);
	EXPECT_EQ(hdr.hd_reply.wc_first, 1u);
	EXPECT_EQ(hdr.hd_reply.wc_nsegs, 2u);
	ExpectSeg(hdr.hd_segs[0], kA);
	ExpectSeg(hdr.hd_segs[1], kB);
	ExpectSeg(hdr.hd_segs[2], kC);
}

TEST(Decode, NomsgCallWithReplyChunk)
{
	Wire w;
	w.fixed(XR_RDMA_NOMSG).read(0, kA).end().end().u32(1).chunk({kB});
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
	EXPECT_TRUE(xr_read_has_pos_zero(&hdr));
	ASSERT_TRUE(hdr.hd_flags & XR_HDR_REPLY_CHUNK);
	EXPECT_EQ(hdr.hd_reply.wc_nsegs, 1u);
	ExpectSeg(hdr.hd_segs[0], kB);
	EXPECT_EQ(hdr.hd_hdr_len, w.size());
}

TEST(Decode, NomsgReplyWithReplyChunk)
{
	Wire w;
	w.fixed(XR_RDMA_NOMSG).end().end().u32(1).chunk({{7, 300, 0x1000}});
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(XR_LIM_REPLY), &hdr), 0);
	ASSERT_TRUE(hdr.hd_flags & XR_HDR_REPLY_CHUNK);
	EXPECT_EQ(hdr.hd_segs[0].sg_length, 300u);
}

// ---- the handle a reply may invalidate remotely --------------------------

TEST(InvRkey, NoChunksNoHandle)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().end().end().payload();
	HdrBuf hdr;
	uint32_t rkey = 0xdead;

	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
	EXPECT_FALSE(xr_hdr_inv_rkey(&hdr, &rkey));
	EXPECT_EQ(rkey, 0xdeadu);
}

TEST(InvRkey, OneHandle)
{
	// A Read chunk, a Write chunk and a Reply chunk in one region; and a
	// Write chunk alone.
	const Seg a1 = {0x77, 4096, 0x1000}, a2 = {0x77, 512, 0x3000};
	const Seg a3 = {0x77, 100, 0x4000};
	const struct {
		const char *name;
		Wire w;
		uint32_t rkey;
	} cases[] = {
		{"every list",
		 Wire().fixed(XR_RDMA_MSG).read(64, a1).end().write({a2}).end()
			.u32(1).chunk({a3}).payload(), 0x77},
		{"write chunk alone",
		 Wire().fixed(XR_RDMA_MSG).end().write({kB}).end().end()
			.payload(), kB.handle},
	};

	for (const auto &c : cases) {
		SCOPED_TRACE(c.name);
		HdrBuf hdr;
		uint32_t rkey = 0;

		ASSERT_EQ(Decode(c.w, Lim(), &hdr), 0);
		ASSERT_TRUE(xr_hdr_inv_rkey(&hdr, &rkey));
		EXPECT_EQ(rkey, c.rkey);
	}
}

TEST(InvRkey, TwoHandlesNone)
{
	const struct {
		const char *name;
		Wire w;
	} cases[] = {
		{"two read segments",
		 Wire().fixed(XR_RDMA_MSG).read(64, kA).read(64, kB).end().end()
			.end().payload()},
		{"read and write",
		 Wire().fixed(XR_RDMA_MSG).read(64, kA).end().write({kB}).end()
			.end().payload()},
		{"write and reply",
		 Wire().fixed(XR_RDMA_MSG).end().write({kA}).end().u32(1)
			.chunk({kB}).payload()},
		{"last reply segment differs",
		 Wire().fixed(XR_RDMA_NOMSG).read(0, kC).end().end().u32(1)
			.chunk({kC, kC, kD})},
	};

	for (const auto &c : cases) {
		SCOPED_TRACE(c.name);
		HdrBuf hdr;
		uint32_t rkey = 0xdead;

		ASSERT_EQ(Decode(c.w, Lim(), &hdr), 0);
		EXPECT_FALSE(xr_hdr_inv_rkey(&hdr, &rkey));
		EXPECT_EQ(rkey, 0xdeadu);
	}
}

TEST(Decode, ReplyEchoesWriteListWithEmptyAndUnusedChunks)
{
	// An empty Write chunk (no segments) and an unused one (zero
	// lengths) are what a responder returns for chunks it did not fill.
	Wire w;
	w.fixed(XR_RDMA_MSG).end().write({{1, 0, 0x1000}, {2, 0, 0x2000}})
		.u32(1).chunk({}).end().u32(1).chunk({}).payload();
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(XR_LIM_REPLY), &hdr), 0);
	ASSERT_EQ(hdr.hd_nwrites, 2u);
	EXPECT_EQ(hdr.hd_writes[0].wc_nsegs, 2u);
	EXPECT_EQ(hdr.hd_writes[1].wc_nsegs, 0u);
	EXPECT_TRUE(hdr.hd_flags & XR_HDR_REPLY_CHUNK);
	EXPECT_EQ(hdr.hd_reply.wc_nsegs, 0u);
}

TEST(Decode, ErrorVers)
{
	Wire w;
	w.fixed(XR_RDMA_ERROR).u32(XR_ERR_VERS).u32(1).u32(3);
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(XR_LIM_REPLY), &hdr), 0);
	EXPECT_EQ(hdr.hd_proc, uint32_t(XR_RDMA_ERROR));
	EXPECT_EQ(hdr.hd_err, uint32_t(XR_ERR_VERS));
	EXPECT_EQ(hdr.hd_vers_low, 1u);
	EXPECT_EQ(hdr.hd_vers_high, 3u);
	EXPECT_EQ(hdr.hd_hdr_len, uint32_t(XR_HDR_ERR_VERS_SIZE));
}

TEST(Decode, ErrorChunk)
{
	Wire w;
	w.fixed(XR_RDMA_ERROR).u32(XR_ERR_CHUNK);
	HdrBuf hdr;

	// Either side may receive one (the backchannel runs the other way).
	ASSERT_EQ(Decode(w, Lim(XR_LIM_REPLY), &hdr), 0);
	EXPECT_EQ(hdr.hd_err, uint32_t(XR_ERR_CHUNK));
	EXPECT_EQ(hdr.hd_hdr_len, uint32_t(XR_HDR_ERR_CHUNK_SIZE));
	ASSERT_EQ(Decode(w, Lim(), &hdr), 0);
}

TEST(Decode, SegmentEndingAtTheTopOfTheAddressSpace)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().write({{1, 16, 0xfffffffffffffff0ULL}})
		.end().end().payload();
	HdrBuf hdr;

	EXPECT_EQ(Decode(w, Lim(), &hdr), 0);
}

TEST(Decode, EmptySegmentAtTheLastAddress)
{
	// Zero bytes at any offset describe no memory, so nothing wraps.
	Wire w;
	w.fixed(XR_RDMA_MSG).end().write({{1, 0, ~0ULL}, {2, 1, ~0ULL}})
		.end().end().payload();
	HdrBuf hdr;

	EXPECT_EQ(Decode(w, Lim(), &hdr), 0);
}

TEST(Decode, ChunkOfExactly4GiBMinusOne)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end()
		.write({{1, 0x80000000u, 0}, {2, 0x7fffffffu, 0}}).end().end()
		.payload();
	HdrBuf hdr;

	EXPECT_EQ(Decode(w, Loose(), &hdr), 0);
}

// ---- rejections ---------------------------------------------------------

struct Reject {
	const char *name;
	Wire wire;
	int want;
	uint32_t lim_flags;
	bool xid_read;
};

std::vector<Reject> Rejects()
{
	std::vector<Reject> r;
	const uint32_t R = XR_LIM_REPLY;

	auto add = [&](const char *name, Wire w, int want, uint32_t flags = 0,
		       bool xid = true) {
		r.push_back({name, std::move(w), want, flags, xid});
	};

	add("empty", Wire(), -EBADMSG, 0, false);
	add("three words", Wire().u32(kXid).u32(1).u32(1), -EBADMSG, 0,
	    false);
	add("version 0", Wire().fixed(XR_RDMA_MSG, 0).end().end().end(),
	    -EPROTONOSUPPORT);
	add("version 2", Wire().fixed(XR_RDMA_MSG, 2), -EPROTONOSUPPORT);
	add("version 2 and unknown proc", Wire().fixed(77, 2),
	    -EPROTONOSUPPORT);
	add("RDMA_MSGP", Wire().fixed(XR_RDMA_MSGP).u32(4).u32(1024).end()
	    .end().end().payload(), -EOPNOTSUPP);
	add("RDMA_DONE", Wire().fixed(XR_RDMA_DONE), -EOPNOTSUPP);
	add("proc 5", Wire().fixed(5).end().end().end(), -EOPNOTSUPP);
	add("proc ~0", Wire().fixed(0xffffffff), -EOPNOTSUPP);

	add("read discriminator 2",
	    Wire().fixed(XR_RDMA_MSG).u32(2).u32(0).seg(kA).end().end().end()
	    .payload(), -EBADMSG);
	add("write discriminator 2",
	    Wire().fixed(XR_RDMA_MSG).end().u32(2).chunk({kA}).end().end()
	    .payload(), -EBADMSG);
	add("reply discriminator 2",
	    Wire().fixed(XR_RDMA_MSG).end().end().u32(2).chunk({kA})
	    .payload(), -EBADMSG);
	add("read list not terminated",
	    Wire().fixed(XR_RDMA_MSG).read(0, kA), -EBADMSG);

	add("read position not XDR aligned",
	    Wire().fixed(XR_RDMA_MSG).read(130, kA).end().end().end()
	    .payload(), -EBADMSG);
	add("read positions descending",
	    Wire().fixed(XR_RDMA_MSG).read(8192, kC).read(4096, kC).end()
	    .end().end().payload(), -EBADMSG);
	add("read position comes back",
	    Wire().fixed(XR_RDMA_MSG).read(100 * 4, kC).read(200 * 4, kC)
	    .read(100 * 4, kC).end().end().end().payload(), -EBADMSG);
	add("read chunks overlap",
	    Wire().fixed(XR_RDMA_MSG).read(400, {1, 400, 0})
	    .read(796, kC).end().end().end().payload(), -EBADMSG);
	add("read position plus length past 4 GiB",
	    Wire().fixed(XR_RDMA_MSG).read(0xfffffff0, {1, 0x20, 0}).end()
	    .end().end().payload(), -EBADMSG);
	add("read segment wraps the address space",
	    Wire().fixed(XR_RDMA_MSG).read(64, {1, 0x20, ~0ULL - 0x10})
	    .end().end().end().payload(), -EBADMSG);
	add("read chunk longer than 4 GiB",
	    Wire().fixed(XR_RDMA_NOMSG).read(0, {1, 0x80000000u, 0})
	    .read(0, {2, 0x80000000u, 0}).end().end().end(), -EBADMSG);
	add("read list in a reply",
	    Wire().fixed(XR_RDMA_MSG).read(64, kA).end().end().end()
	    .payload(), -EBADMSG, R);

	add("write segment wraps the address space",
	    Wire().fixed(XR_RDMA_MSG).end()
	    .write({{1, 0x11, 0xfffffffffffffff0ULL}}).end().end()
	    .payload(), -EBADMSG);
	add("write chunk longer than 4 GiB",
	    Wire().fixed(XR_RDMA_MSG).end()
	    .write({{1, 0x80000000u, 0}, {2, 0x80000000u, 0}}).end().end()
	    .payload(), -EBADMSG);
	add("write chunk with no segments in a call",
	    Wire().fixed(XR_RDMA_MSG).end().write({}).end().end().payload(),
	    -EBADMSG);
	add("write chunk claims more segments than bytes",
	    Wire().fixed(XR_RDMA_MSG).end().u32(1).u32(0xffffffff).seg(kA)
	    .end().end().payload(), -EBADMSG);
	add("write chunk claims one segment too many",
	    Wire().fixed(XR_RDMA_MSG).end().u32(1).u32(2).seg(kA), -EBADMSG);
	add("reply chunk with no segments in a call",
	    Wire().fixed(XR_RDMA_MSG).end().end().u32(1).chunk({})
	    .payload(), -EBADMSG);
	add("reply chunk longer than 4 GiB",
	    Wire().fixed(XR_RDMA_MSG).end().end().u32(1)
	    .chunk({{1, 0xffffffffu, 0}, {2, 1, 0}}).payload(), -EBADMSG);

	add("RDMA_MSG without payload",
	    Wire().fixed(XR_RDMA_MSG).end().end().end(), -EBADMSG);
	add("RDMA_MSG payload with another XID",
	    Wire().fixed(XR_RDMA_MSG).end().end().end().u32(kXid + 1),
	    -EBADMSG);
	add("RDMA_MSG with a position-zero read chunk",
	    Wire().fixed(XR_RDMA_MSG).read(0, kA).end().end().end()
	    .payload(), -EBADMSG);
	add("RDMA_NOMSG with no chunks",
	    Wire().fixed(XR_RDMA_NOMSG).end().end().end(), -EBADMSG);
	add("RDMA_NOMSG call without position zero",
	    Wire().fixed(XR_RDMA_NOMSG).read(64, kA).end().end().u32(1)
	    .chunk({kB}), -EBADMSG);
	add("RDMA_NOMSG with trailing bytes",
	    Wire().fixed(XR_RDMA_NOMSG).read(0, kA).end().end().end()
	    .u32(kXid), -EBADMSG);
	add("RDMA_NOMSG reply without reply chunk",
	    Wire().fixed(XR_RDMA_NOMSG).end().write({kA}).end().end(),
	    -EBADMSG, R);
	add("RDMA_NOMSG reply with an empty reply chunk",
	    Wire().fixed(XR_RDMA_NOMSG).end().end().u32(1).chunk({}),
	    -EBADMSG, R);

	add("RDMA_ERROR without code", Wire().fixed(XR_RDMA_ERROR), -EBADMSG,
	    R);
	add("RDMA_ERROR code 0", Wire().fixed(XR_RDMA_ERROR).u32(0),
	    -EBADMSG, R);
	add("RDMA_ERROR code 3", Wire().fixed(XR_RDMA_ERROR).u32(3),
	    -EBADMSG, R);
	add("ERR_VERS without range",
	    Wire().fixed(XR_RDMA_ERROR).u32(XR_ERR_VERS).u32(1), -EBADMSG, R);
	add("ERR_VERS with trailing bytes",
	    Wire().fixed(XR_RDMA_ERROR).u32(XR_ERR_VERS).u32(1).u32(1).u32(0),
	    -EBADMSG, R);
	add("ERR_VERS low above high",
	    Wire().fixed(XR_RDMA_ERROR).u32(XR_ERR_VERS).u32(2).u32(1),
	    -EBADMSG, R);
	add("ERR_CHUNK with trailing bytes",
	    Wire().fixed(XR_RDMA_ERROR).u32(XR_ERR_CHUNK).u32(0), -EBADMSG, R);
	return r;
}

TEST(Reject, Table)
{
	for (const Reject &r : Rejects()) {
		SCOPED_TRACE(r.name);
		xr_limits lim = Lim(r.lim_flags);
		HdrBuf hdr;

		EXPECT_EQ(Decode(r.wire, lim, &hdr), r.want);
		EXPECT_EQ(!!(hdr.hd_flags & XR_HDR_XID), r.xid_read);
		if (r.xid_read) {
			EXPECT_EQ(hdr.hd_xid, htobe32(kXid));
		}
		EXPECT_LE(hdr.hd_nreads, uint32_t(XR_MAX_SEGS));
		EXPECT_LE(hdr.hd_nwrites, uint32_t(XR_MAX_WRITE_CHUNKS));
		EXPECT_LE(hdr.hd_nsegs, uint32_t(XR_MAX_SEGS));
	}
}

TEST(Reject, VersionMismatchKeepsFixedFields)
{
	Wire w;
	w.fixed(XR_RDMA_MSG, 7);
	HdrBuf hdr;

	ASSERT_EQ(Decode(w, Lim(), &hdr), -EPROTONOSUPPORT);
	EXPECT_EQ(hdr.hd_xid, htobe32(kXid));
	EXPECT_EQ(hdr.hd_vers, 7u);
	EXPECT_EQ(hdr.hd_credits, kCredits);
}

TEST(Reject, LengthNotWholeWords)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().end().end().payload(1);
	HdrBuf hdr;

	for (size_t cut = 1; cut < 4; cut++)
		EXPECT_EQ(Decode(w, w.size() - cut, Lim(), &hdr), -EBADMSG);
}

TEST(Reject, CallerErrors)
{
	Wire w;
	w.fixed(XR_RDMA_MSG).end().end().end().payload();
	std::vector<uint32_t> store(w.size() / 4 + 1);
	uint8_t *odd = reinterpret_cast<uint8_t *>(store.data()) + 2;
	xr_limits lim = Lim();
	HdrBuf hdr;

	memcpy(odd, w.bytes(), w.size());
	EXPECT_EQ(xr_hdr_decode(odd, w.size(), &lim, &hdr), -EINVAL);
	EXPECT_FALSE(hdr.hd_flags & XR_HDR_XID);

	lim = Lim();
	lim.lm_max_segs = XR_MAX_SEGS + 1;
	EXPECT_EQ(Decode(w, lim, &hdr), -EINVAL);
	lim = Lim();
	lim.lm_max_read_segs = XR_MAX_SEGS + 1;
	EXPECT_EQ(Decode(w, lim, &hdr), -EINVAL);
	lim = Lim();
	lim.lm_max_chunk_segs = XR_MAX_SEGS + 1;
	EXPECT_EQ(Decode(w, lim, &hdr), -EINVAL);
	lim = Lim();
	lim.lm_max_write_chunks = XR_MAX_WRITE_CHUNKS + 1;
	EXPECT_EQ(Decode(w, lim, &hdr), -EINVAL);
}

// Valid headers used for truncation, round trips and the seed corpus.
struct Sample {
	const char *name;
	Wire wire;
	uint32_t lim_flags;
};

std::vector<Sample> Samples()
{
	std::vector<Sample> s;
	const uint32_t R = XR_LIM_REPLY;

	s.push_back({"msg", Wire().fixed(XR_RDMA_MSG).end().end().end()
		     .payload(0), 0});
	s.push_back({"msg read chunk", Wire().fixed(XR_RDMA_MSG)
		     .read(128, kA).read(128, kB).end().end().end().payload(0),
		     0});
	s.push_back({"nomsg three read chunks", Wire().fixed(XR_RDMA_NOMSG)
		     .read(0, kC).read(64, kA).read(8192, kD).end().end()
		     .u32(1).chunk({kB}), 0});
	s.push_back({"msg write list", Wire().fixed(XR_RDMA_MSG).end()
		     .write({kA}).write({kB, kC}).write({kD}).end().end()
		     .payload(0), 0});
	s.push_back({"msg reply chunk", Wire().fixed(XR_RDMA_MSG).end()
		     .end().u32(1).chunk({kA, kB}).payload(0), 0});
	s.push_back({"reply msg write list", Wire().fixed(XR_RDMA_MSG).end()
		     .write({{1, 100, 0x1000}, {2, 0, 0x2000}}).write({}).end()
		     .end().payload(0), R});
	s.push_back({"reply nomsg", Wire().fixed(XR_RDMA_NOMSG).end().end()
		     .u32(1).chunk({kA, kB}), R});
	s.push_back({"err vers", Wire().fixed(XR_RDMA_ERROR)
		     .u32(XR_ERR_VERS).u32(1).u32(1), R});
	s.push_back({"err chunk", Wire().fixed(XR_RDMA_ERROR)
		     .u32(XR_ERR_CHUNK), R});
	return s;
}

TEST(Reject, TruncatedAtEveryByte)
{
	for (const Sample &s : Samples()) {
		SCOPED_TRACE(s.name);
		xr_limits lim = Lim(s.lim_flags);
		HdrBuf hdr;

		ASSERT_EQ(Decode(s.wire, lim, &hdr), 0);
		for (size_t len = 0; len < s.wire.size(); len++) {
			SCOPED_TRACE("length " + std::to_string(len));
			ASSERT_EQ(Decode(s.wire, len, lim, &hdr), -EBADMSG);
			ASSERT_EQ(!!(hdr.hd_flags & XR_HDR_XID),
				  len >= XR_HDR_FIXED_SIZE);
		}
	}
}

// ---- limits: N accepted, N + 1 refused -----------------------------------

Wire ReadSegs(uint32_t n)
{
	Wire w;

	w.fixed(XR_RDMA_NOMSG);
	for (uint32_t i = 0; i < n; i++)
		w.read(i ? 4096 : 0, {i, 8, 0});
	return w.end().end().end();
}

Wire WriteChunks(uint32_t n)
{
	Wire w;

	w.fixed(XR_RDMA_MSG).end();
	for (uint32_t i = 0; i < n; i++)
		w.write({{i, 8, 0}});
	return w.end().end().payload();
}

Wire WriteChunkSegs(uint32_t n)
{
	Wire w;

	w.fixed(XR_RDMA_MSG).end().u32(1).u32(n);
	for (uint32_t i = 0; i < n; i++)
		w.seg({i, 8, 0});
	return w.end().end().payload();
}

Wire ReplyChunkSegs(uint32_t n)
{
	Wire w;

	w.fixed(XR_RDMA_MSG).end().end().u32(1).u32(n);
	for (uint32_t i = 0; i < n; i++)
		w.seg({i, 8, 0});
	return w.payload();
}

TEST(Limits, ReadSegments)
{
	xr_limits lim = Loose();
	HdrBuf hdr;

	for (uint32_t max : {1u, 2u, 7u, uint32_t(XR_MAX_SEGS)}) {
		SCOPED_TRACE(max);
		lim.lm_max_read_segs = max;
		EXPECT_EQ(Decode(ReadSegs(max), lim, &hdr), 0);
		EXPECT_EQ(hdr.hd_nreads, max);
		EXPECT_EQ(Decode(ReadSegs(max + 1), lim, &hdr), -E2BIG);
		EXPECT_LE(hdr.hd_nreads, max);
	}
	lim.lm_max_read_segs = 0;
	EXPECT_EQ(Decode(ReadSegs(1), lim, &hdr), -E2BIG);
}

TEST(Limits, WriteChunks)
{
	xr_limits lim = Loose();
	HdrBuf hdr;

	for (uint32_t max = 0; max <= XR_MAX_WRITE_CHUNKS; max++) {
		SCOPED_TRACE(max);
		lim.lm_max_write_chunks = max;
		EXPECT_EQ(Decode(WriteChunks(max), lim, &hdr), 0);
		EXPECT_EQ(hdr.hd_nwrites, max);
		EXPECT_EQ(Decode(WriteChunks(max + 1), lim, &hdr), -E2BIG);
		EXPECT_LE(hdr.hd_nwrites, max);
	}
}

TEST(Limits, SegmentsPerChunk)
{
	xr_limits lim = Loose();
	HdrBuf hdr;

	for (uint32_t max : {1u, 5u, uint32_t(XR_MAX_SEGS)}) {
		SCOPED_TRACE(max);
		lim.lm_max_chunk_segs = max;
		EXPECT_EQ(Decode(WriteChunkSegs(max), lim, &hdr), 0);
		EXPECT_EQ(Decode(WriteChunkSegs(max + 1), lim, &hdr), -E2BIG);
		EXPECT_EQ(Decode(ReplyChunkSegs(max), lim, &hdr), 0);
		EXPECT_EQ(Decode(ReplyChunkSegs(max + 1), lim, &hdr), -E2BIG);
	}
}

TEST(Limits, SegmentsInTheWholeHeader)
{
	// 3 read segments, a write chunk of 4 and a reply chunk of 3: 10.
	auto build = [](uint32_t reply_segs) {
		Wire w;

		w.fixed(XR_RDMA_NOMSG).read(0, kC).read(0, kC).read(64, kC).end()
			.write({kA, kA, kA, kA}).end().u32(1).u32(reply_segs);
		for (uint32_t i = 0; i < reply_segs; i++)
			w.seg(kB);
		return w;
	};
	xr_limits lim = Loose();
	HdrBuf hdr;

	lim.lm_max_segs = 10;
	EXPECT_EQ(Decode(build(3), lim, &hdr), 0);
	EXPECT_EQ(hdr.hd_nreads + hdr.hd_nsegs, 10u);
	EXPECT_EQ(Decode(build(4), lim, &hdr), -E2BIG);

	// The read list alone counts against the total as well.
	lim.lm_max_segs = 2;
	EXPECT_EQ(Decode(ReadSegs(2), lim, &hdr), 0);
	EXPECT_EQ(Decode(ReadSegs(3), lim, &hdr), -E2BIG);
}

TEST(Limits, ChunkLength)
{
	const uint32_t max = 64 * 1024;
	xr_limits lim = Lim();
	HdrBuf hdr;

	lim.lm_max_chunk_len = max;
	auto read = [](uint32_t len) {
		return Wire().fixed(XR_RDMA_MSG).read(64, {1, len - 8, 0})
			.read(64, {2, 8, 0}).end().end().end().payload();
	};
	auto write = [](uint32_t len) {
		return Wire().fixed(XR_RDMA_MSG).end()
			.write({{1, 8, 0}, {2, len - 8, 0}}).end().end()
			.payload();
	};
	auto reply = [](uint32_t len) {
		return Wire().fixed(XR_RDMA_MSG).end().end().u32(1)
			.chunk({{1, len, 0}}).payload();
	};

	EXPECT_EQ(Decode(read(max), lim, &hdr), 0);
	EXPECT_EQ(Decode(read(max + 1), lim, &hdr), -E2BIG);
	EXPECT_EQ(Decode(write(max), lim, &hdr), 0);
	EXPECT_EQ(Decode(write(max + 1), lim, &hdr), -E2BIG);
	EXPECT_EQ(Decode(reply(max), lim, &hdr), 0);
	EXPECT_EQ(Decode(reply(max + 1), lim, &hdr), -E2BIG);

	// The first of two read chunks is judged when the second begins.
	Wire two = Wire().fixed(XR_RDMA_MSG).read(64, {1, max + 1, 0})
		.read(0x100000, kC).end().end().end().payload();
	EXPECT_EQ(Decode(two, lim, &hdr), -E2BIG);
}

TEST(Limits, MalformedWinsOverTooBig)
{
	xr_limits lim = Lim();
	HdrBuf hdr;

	lim.lm_max_chunk_segs = 1;
	Wire w = Wire().fixed(XR_RDMA_MSG).end()
		.write({kA, {2, 0x20, ~0ULL - 8}}).end().end().payload();
	EXPECT_EQ(Decode(w, lim, &hdr), -EBADMSG);

	// Beyond the first item over a limit nothing is examined.
	lim = Lim();
	lim.lm_max_write_chunks = 1;
	Wire w2 = Wire().fixed(XR_RDMA_MSG).end().write({kA}).write({kB})
		.u32(7);
	EXPECT_EQ(Decode(w2, lim, &hdr), -E2BIG);
}

// ---- encoders -------------------------------------------------------------

HdrBuf BuildHdr(uint32_t proc)
{
	HdrBuf hdr;

	hdr.hd_xid = htobe32(kXid);
	hdr.hd_vers = 1;
	hdr.hd_credits = kCredits;
	hdr.hd_proc = proc;
	return hdr;
}

void AddRead(xr_hdr *hdr, uint32_t pos, const Seg &s)
{
	xr_read_seg *rs = &hdr->hd_reads[hdr->hd_nreads++];

	rs->rs_position = pos;
	rs->rs_seg = {s.handle, s.length, s.offset};
}

xr_write_chunk AddChunk(xr_hdr *hdr, std::initializer_list<Seg> segs)
{
	xr_write_chunk wc = {hdr->hd_nsegs, uint32_t(segs.size())};

	for (const Seg &s : segs)
		hdr->hd_segs[hdr->hd_nsegs++] = {s.handle, s.length, s.offset};
	return wc;
}

// Compare what a decode produced with what was encoded.
void ExpectSameHdr(const xr_hdr &a, const xr_hdr &b)
{
	EXPECT_EQ(a.hd_xid, b.hd_xid);
	EXPECT_EQ(a.hd_credits, b.hd_credits);
	EXPECT_EQ(a.hd_proc, b.hd_proc);
	ASSERT_EQ(a.hd_nreads, b.hd_nreads);
	for (uint32_t i = 0; i < a.hd_nreads; i++) {
		EXPECT_EQ(a.hd_reads[i].rs_position, b.hd_reads[i].rs_position);
		EXPECT_EQ(a.hd_reads[i].rs_seg.sg_handle,
			  b.hd_reads[i].rs_seg.sg_handle);
		EXPECT_EQ(a.hd_reads[i].rs_seg.sg_length,
			  b.hd_reads[i].rs_seg.sg_length);
		EXPECT_EQ(a.hd_reads[i].rs_seg.sg_offset,
			  b.hd_reads[i].rs_seg.sg_offset);
	}
	auto same_chunk = [&](const xr_write_chunk &x, const xr_write_chunk &y) {
		ASSERT_EQ(x.wc_nsegs, y.wc_nsegs);
		for (uint32_t s = 0; s < x.wc_nsegs; s++) {
			const xr_seg &p = a.hd_segs[x.wc_first + s];
			const xr_seg &q = b.hd_segs[y.wc_first + s];

			EXPECT_EQ(p.sg_handle, q.sg_handle);
			EXPECT_EQ(p.sg_length, q.sg_length);
			EXPECT_EQ(p.sg_offset, q.sg_offset);
		}
	};
	ASSERT_EQ(a.hd_nwrites, b.hd_nwrites);
	for (uint32_t i = 0; i < a.hd_nwrites; i++)
		same_chunk(a.hd_writes[i], b.hd_writes[i]);
	ASSERT_EQ(a.hd_flags & XR_HDR_REPLY_CHUNK,
		  b.hd_flags & XR_HDR_REPLY_CHUNK);
	if (a.hd_flags & XR_HDR_REPLY_CHUNK)
		same_chunk(a.hd_reply, b.hd_reply);
}

// Encode @hdr, check the bytes against @want, decode them back.
void RoundTrip(const xr_hdr &hdr, const Wire &want, uint32_t lim_flags)
{
	std::vector<uint32_t> buf(1024);
	int n = xr_hdr_encode(buf.data(), buf.size() * 4, &hdr);

	ASSERT_GT(n, 0);
	ASSERT_EQ(size_t(n), want.size());
	EXPECT_EQ(memcmp(buf.data(), want.bytes(), want.size()), 0);

	size_t len = size_t(n);
	if (hdr.hd_proc == XR_RDMA_MSG) {
		buf[len / 4] = htobe32(kXid);
		len += 4;
	}
	xr_limits lim = Loose(lim_flags);
	HdrBuf back;
	ASSERT_EQ(xr_hdr_decode(buf.data(), len, &lim, &back), 0);
	EXPECT_EQ(back.hd_hdr_len, uint32_t(n));
	ExpectSameHdr(back, hdr);
}

TEST(Encode, RoundTrips)
{
	{
		SCOPED_TRACE("msg, no chunks");
		HdrBuf h = BuildHdr(XR_RDMA_MSG);
		RoundTrip(h, Wire().fixed(XR_RDMA_MSG).end().end().end(), 0);
	}
	{
		SCOPED_TRACE("msg, read list");
		HdrBuf h = BuildHdr(XR_RDMA_MSG);
		AddRead(&h, 128, kA);
		AddRead(&h, 128, kB);
		AddRead(&h, 16384, kD);
		RoundTrip(h, Wire().fixed(XR_RDMA_MSG).read(128, kA).read(128, kB)
			  .read(16384, kD).end().end().end(), 0);
	}
	{
		SCOPED_TRACE("nomsg, position zero, write list, reply chunk");
		HdrBuf h = BuildHdr(XR_RDMA_NOMSG);
		AddRead(&h, 0, kC);
		h.hd_writes[h.hd_nwrites++] = AddChunk(&h, {kA, kB});
		h.hd_writes[h.hd_nwrites++] = AddChunk(&h, {kD});
		h.hd_reply = AddChunk(&h, {kC, kA});
		h.hd_flags |= XR_HDR_REPLY_CHUNK;
		RoundTrip(h, Wire().fixed(XR_RDMA_NOMSG).read(0, kC).end()
			  .write({kA, kB}).write({kD}).end().u32(1)
			  .chunk({kC, kA}), 0);
	}
	{
		SCOPED_TRACE("reply: write list with an empty chunk");
		HdrBuf h = BuildHdr(XR_RDMA_MSG);
		h.hd_writes[h.hd_nwrites++] = AddChunk(&h, {});
		h.hd_writes[h.hd_nwrites++] = AddChunk(&h, {kB});
		RoundTrip(h, Wire().fixed(XR_RDMA_MSG).end().write({})
			  .write({kB}).end().end(), XR_LIM_REPLY);
	}
}

TEST(Encode, ServerEchoesChunksWithBytesWritten)
{
	// The call: a READ with a write chunk of three 4 KiB segments and a
	// reply chunk of two.
	Wire call = Wire().fixed(XR_RDMA_MSG).end()
		.write({{1, 4096, 0x10000}, {2, 4096, 0x20000}, {3, 4096, 0x30000}})
		.end().u32(1).chunk({{4, 1024, 0x40000}, {5, 1024, 0x50000}})
		.payload();
	HdrBuf in, out;

	ASSERT_EQ(Decode(call, Lim(), &in), 0);

	// 5000 bytes of READ data; the 1500-byte reply goes in the chunk.
	out = in;
	out.hd_proc = XR_RDMA_NOMSG;
	out.hd_credits = 64;
	xr_write_chunk wc = out.hd_writes[0];
	ASSERT_EQ(xr_chunk_fill(&out.hd_segs[wc.wc_first], wc.wc_nsegs, 5000),
		  0);
	ASSERT_EQ(xr_chunk_fill(&out.hd_segs[out.hd_reply.wc_first],
				out.hd_reply.wc_nsegs, 1500), 0);

	std::vector<uint32_t> buf(256);
	int n = xr_hdr_encode(buf.data(), buf.size() * 4, &out);
	ASSERT_GT(n, 0);
	Wire want = Wire().u32(kXid).u32(1).u32(64).u32(XR_RDMA_NOMSG).end()
		.write({{1, 4096, 0x10000}, {2, 904, 0x20000}, {3, 0, 0x30000}})
		.end().u32(1).chunk({{4, 1024, 0x40000}, {5, 476, 0x50000}});
	ASSERT_EQ(size_t(n), want.size());
	EXPECT_EQ(memcmp(buf.data(), want.bytes(), want.size()), 0);

	xr_limits lim = Lim(XR_LIM_REPLY);
	HdrBuf back;
	ASSERT_EQ(xr_hdr_decode(buf.data(), size_t(n), &lim, &back), 0);
	uint32_t len;
	ASSERT_EQ(xr_chunk_length(&back.hd_segs[back.hd_writes[0].wc_first],
				  back.hd_writes[0].wc_nsegs, &len), 0);
	EXPECT_EQ(len, 5000u);
	ASSERT_EQ(xr_chunk_length(&back.hd_segs[back.hd_reply.wc_first],
				  back.hd_reply.wc_nsegs, &len), 0);
	EXPECT_EQ(len, 1500u);
}

// Every size below what is needed is refused, and nothing is written.
void ExpectRefusesSmallBuffers(size_t need,
			       int (*encode)(void *buf, size_t len))
{
	for (size_t len = 0; len < need; len++) {
		SCOPED_TRACE("room " + std::to_string(len));
		std::vector<uint32_t> buf(need / 4 + 2, 0xa5a5a5a5);

		ASSERT_EQ(encode(buf.data(), len), -EMSGSIZE);
		for (uint32_t word : buf)
			ASSERT_EQ(word, 0xa5a5a5a5);
	}
	for (size_t len = need; len < need + 8; len++) {
		std::vector<uint32_t> buf(need / 4 + 2, 0xa5a5a5a5);

		ASSERT_EQ(encode(buf.data(), len), int(need));
		ASSERT_EQ(buf[need / 4], 0xa5a5a5a5);
	}
}

HdrBuf g_big;

TEST(Encode, RefusesSmallBuffers)
{
	g_big = BuildHdr(XR_RDMA_NOMSG);
	AddRead(&g_big, 0, kA);
	AddRead(&g_big, 64, kB);
	g_big.hd_writes[g_big.hd_nwrites++] = AddChunk(&g_big, {kC, kD});
	g_big.hd_reply = AddChunk(&g_big, {kA});
	g_big.hd_flags |= XR_HDR_REPLY_CHUNK;

	ExpectRefusesSmallBuffers(16 + 2 * 24 + 4 + 8 + 32 + 4 + 8 + 16,
				  [](void *buf, size_t len) {
		return xr_hdr_encode(buf, len, &g_big);
	});
	ExpectRefusesSmallBuffers(XR_HDR_ERR_VERS_SIZE,
				  [](void *buf, size_t len) {
		return xr_hdr_encode_error(buf, len, htobe32(kXid), 1,
					   XR_ERR_VERS);
	});
	ExpectRefusesSmallBuffers(XR_HDR_ERR_CHUNK_SIZE,
				  [](void *buf, size_t len) {
		return xr_hdr_encode_error(buf, len, htobe32(kXid), 1,
					   XR_ERR_CHUNK);
	});
}

TEST(Encode, CallerErrors)
{
	std::vector<uint32_t> buf(1024);
	uint8_t *odd = reinterpret_cast<uint8_t *>(buf.data()) + 1;
	HdrBuf h = BuildHdr(XR_RDMA_MSG);

	EXPECT_EQ(xr_hdr_encode(odd, 1000, &h), -EINVAL);
	h.hd_proc = XR_RDMA_ERROR;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h.hd_proc = XR_RDMA_MSGP;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);

	h = BuildHdr(XR_RDMA_MSG);
	h.hd_nreads = XR_MAX_SEGS + 1;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h = BuildHdr(XR_RDMA_MSG);
	h.hd_nwrites = XR_MAX_WRITE_CHUNKS + 1;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h = BuildHdr(XR_RDMA_MSG);
	h.hd_nwrites = 1;
	h.hd_writes[0] = {XR_MAX_SEGS - 1, 2};
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h.hd_writes[0] = {0xffffffff, 2};
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h = BuildHdr(XR_RDMA_MSG);
	h.hd_flags |= XR_HDR_REPLY_CHUNK;
	h.hd_reply = {1, XR_MAX_SEGS};
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &h), -EINVAL);
	h.hd_reply = {0, XR_MAX_SEGS};
	EXPECT_GT(xr_hdr_encode(buf.data(), 4096, &h), 0);

	EXPECT_EQ(xr_hdr_encode_error(odd, 100, 0, 1, XR_ERR_CHUNK), -EINVAL);
	EXPECT_EQ(xr_hdr_encode_error(buf.data(), 100, 0, 1, 0), -EINVAL);
	EXPECT_EQ(xr_hdr_encode_error(buf.data(), 100, 0, 1, 3), -EINVAL);
}

// ---- list storage smaller than the header ------------------------------

// A header whose lists may use only the first entries of its storage; the
// rest is filled with a pattern that must survive every decode.
struct Tight : HdrBuf {
	Tight(uint32_t max_writes, uint32_t max_reads, uint32_t max_segs)
	{
		memset(writes, 0xa5, sizeof(writes));
		memset(reads, 0xa5, sizeof(reads));
		memset(segs, 0xa5, sizeof(segs));
		xr_hdr_attach(this, writes, max_writes, reads, max_reads, segs,
			      max_segs);
	}
	void ExpectUntouched() const
	{
		auto check = [](const void *p, size_t len) {
			const uint8_t *b = static_cast<const uint8_t *>(p);

			for (size_t i = 0; i < len; i++)
				ASSERT_EQ(b[i], 0xa5) << "byte " << i;
		};
		check(writes + hd_max_writes,
		      sizeof(writes) - hd_max_writes * sizeof(writes[0]));
		check(reads + hd_max_reads,
		      sizeof(reads) - hd_max_reads * sizeof(reads[0]));
		check(segs + hd_max_segs,
		      sizeof(segs) - hd_max_segs * sizeof(segs[0]));
		EXPECT_LE(hd_nwrites, hd_max_writes);
		EXPECT_LE(hd_nreads, hd_max_reads);
		EXPECT_LE(hd_nsegs, hd_max_segs);
	}
};

TEST(Storage, ValidButTooLargeIsENOSPC)
{
	Wire w = Wire().fixed(XR_RDMA_MSG).read(8, kA).read(8, kB).read(8, kC)
		.end().write({kA, kB}).write({kC}).end().u32(1).chunk({kD})
		.payload();
	HdrBuf full;

	ASSERT_EQ(Decode(w, Lim(), &full), 0);
	{
		SCOPED_TRACE("reads");
		Tight t(4, 2, 8);
		EXPECT_EQ(Decode(w, Lim(), &t), -ENOSPC);
		EXPECT_TRUE(t.hd_flags & XR_HDR_XID);
		EXPECT_EQ(t.hd_xid, htobe32(kXid));
		t.ExpectUntouched();
	}
	{
		SCOPED_TRACE("write chunks");
		Tight t(1, 4, 8);
		EXPECT_EQ(Decode(w, Lim(), &t), -ENOSPC);
		t.ExpectUntouched();
	}
	{
		SCOPED_TRACE("segments, the Reply chunk's last");
		Tight t(4, 4, 3);
		EXPECT_EQ(Decode(w, Lim(), &t), -ENOSPC);
		EXPECT_FALSE(t.hd_flags & XR_HDR_REPLY_CHUNK);
		t.ExpectUntouched();
	}
	{
		SCOPED_TRACE("just enough");
		Tight t(2, 3, 4);
		ASSERT_EQ(Decode(w, Lim(), &t), 0);
		t.ExpectUntouched();
		ExpectSameHdr(t, full);
	}
}

TEST(Storage, LimitsAndFormBeforeStorage)
{
	// Over the limits: -E2BIG, whatever the storage.
	Wire many = Wire().fixed(XR_RDMA_MSG);
	for (int i = 0; i < 17; i++)
		many.read(8, kC);
	many.end().end().end().payload();
	Tight t1(0, 1, 0);
	EXPECT_EQ(Decode(many, Lim(), &t1), -E2BIG);
	t1.ExpectUntouched();

	// Malformed after the storage ran out: -EBADMSG, not -ENOSPC.
	Wire bad = Wire().fixed(XR_RDMA_MSG).read(8, kA).read(8, kB).end()
		.u32(2).end().end().payload();
	Tight t2(1, 1, 1);
	EXPECT_EQ(Decode(bad, Lim(), &t2), -EBADMSG);
	t2.ExpectUntouched();

	// A Position-zero chunk is seen even when no Read segment is kept.
	Wire msg0 = Wire().fixed(XR_RDMA_MSG).read(0, kA).end().end().end()
		.payload();
	Wire nomsg0 = Wire().fixed(XR_RDMA_NOMSG).read(0, kA).end().end()
		.end();
	Tight t3(0, 0, 0);
	EXPECT_EQ(Decode(msg0, Lim(), &t3), -EBADMSG);
	EXPECT_EQ(Decode(nomsg0, Lim(), &t3), -ENOSPC);
	t3.ExpectUntouched();
}

TEST(Storage, EncodeStaysWithinStorage)
{
	std::vector<uint32_t> buf(1024);
	Tight t(1, 1, 2);

	t.hd_xid = htobe32(kXid);
	t.hd_proc = XR_RDMA_MSG;
	t.hd_nreads = 2;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &t), -EINVAL);
	t.hd_nreads = 0;
	t.hd_nwrites = 2;
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &t), -EINVAL);
	t.hd_nwrites = 0;
	t.hd_flags = XR_HDR_REPLY_CHUNK;
	t.hd_reply = {1, 2};
	EXPECT_EQ(xr_hdr_encode(buf.data(), 4096, &t), -EINVAL);
	t.hd_reply = {0, 2};
	t.segs[0] = {1, 2, 3};
	t.segs[1] = {4, 5, 6};
	EXPECT_GT(xr_hdr_encode(buf.data(), 4096, &t), 0);
}

TEST(Encode, AlwaysWritesVersionOne)
{
	std::vector<uint32_t> buf(16);
	HdrBuf h = BuildHdr(XR_RDMA_MSG);

	h.hd_vers = 9;
	ASSERT_EQ(xr_hdr_encode(buf.data(), 64, &h), XR_HDR_MIN_SIZE);
	EXPECT_EQ(be32toh(buf[1]), 1u);
}

TEST(Encode, Errors)
{
	std::vector<uint32_t> buf(16);
	xr_limits lim = Lim(XR_LIM_REPLY);
	HdrBuf hdr;

	ASSERT_EQ(xr_hdr_encode_error(buf.data(), 64, htobe32(kXid), 5,
				      XR_ERR_VERS), XR_HDR_ERR_VERS_SIZE);
	Wire vers = Wire().u32(kXid).u32(1).u32(5).u32(XR_RDMA_ERROR)
		.u32(XR_ERR_VERS).u32(1).u32(1);
	EXPECT_EQ(memcmp(buf.data(), vers.bytes(), vers.size()), 0);
	ASSERT_EQ(xr_hdr_decode(buf.data(), XR_HDR_ERR_VERS_SIZE, &lim, &hdr),
		  0);
	EXPECT_EQ(hdr.hd_err, uint32_t(XR_ERR_VERS));
	EXPECT_EQ(hdr.hd_vers_low, 1u);
	EXPECT_EQ(hdr.hd_vers_high, 1u);

	ASSERT_EQ(xr_hdr_encode_error(buf.data(), 64, htobe32(kXid), 5,
				      XR_ERR_CHUNK), XR_HDR_ERR_CHUNK_SIZE);
	Wire chunk = Wire().u32(kXid).u32(1).u32(5).u32(XR_RDMA_ERROR)
		.u32(XR_ERR_CHUNK);
	EXPECT_EQ(memcmp(buf.data(), chunk.bytes(), chunk.size()), 0);
	ASSERT_EQ(xr_hdr_decode(buf.data(), XR_HDR_ERR_CHUNK_SIZE, &lim,
				&hdr), 0);
	EXPECT_EQ(hdr.hd_err, uint32_t(XR_ERR_CHUNK));
}

TEST(Encode, PlainMessage)
{
	std::vector<uint32_t> buf(16);
	uint8_t *odd = reinterpret_cast<uint8_t *>(buf.data()) + 1;
	xr_limits lim = Lim(0);
	HdrBuf hdr;

	ASSERT_EQ(xr_hdr_encode_msg(buf.data(), 64, htobe32(kXid), 2),
		  XR_HDR_MIN_SIZE);
	Wire msg = Wire().u32(kXid).u32(1).u32(2).u32(XR_RDMA_MSG)
		.u32(0).u32(0).u32(0);
	EXPECT_EQ(memcmp(buf.data(), msg.bytes(), msg.size()), 0);
	// An RPC message, starting with the same XID, follows the header.
	buf[7] = htobe32(kXid);
	ASSERT_EQ(xr_hdr_decode(buf.data(), XR_HDR_MIN_SIZE + 8, &lim, &hdr),
		  0);
	EXPECT_EQ(hdr.hd_proc, uint32_t(XR_RDMA_MSG));
	EXPECT_EQ(hdr.hd_credits, 2u);
	EXPECT_EQ(hdr.hd_nreads + hdr.hd_nwrites, 0u);
	EXPECT_EQ(hdr.hd_hdr_len, uint32_t(XR_HDR_MIN_SIZE));

	EXPECT_EQ(xr_hdr_encode_msg(odd, 64, 0, 1), -EINVAL);
	ExpectRefusesSmallBuffers(XR_HDR_MIN_SIZE, [](void *b, size_t len) {
		return xr_hdr_encode_msg(b, len, htobe32(kXid), 1);
	});
}

// ---- chunk helpers --------------------------------------------------------

TEST(Helpers, ChunkLength)
{
	xr_seg segs[3] = {{1, 0xffffffff, 0}, {2, 0, 0}, {3, 1, 0}};
	uint32_t len = 7;

	EXPECT_EQ(xr_chunk_length(segs, 0, &len), 0);
	EXPECT_EQ(len, 0u);
	EXPECT_EQ(xr_chunk_length(segs, 2, &len), 0);
	EXPECT_EQ(len, 0xffffffffu);
	len = 7;
	EXPECT_EQ(xr_chunk_length(segs, 3, &len), -EOVERFLOW);
	EXPECT_EQ(len, 7u);
}

TEST(Helpers, ChunkFill)
{
	const xr_seg orig[3] = {{1, 100, 0}, {2, 50, 0}, {3, 10, 0}};
	struct {
		uint32_t written;
		int ret;
		uint32_t want[3];
	} cases[] = {
		{0, 0, {0, 0, 0}},
		{1, 0, {1, 0, 0}},
		{100, 0, {100, 0, 0}},
		{101, 0, {100, 1, 0}},
		{155, 0, {100, 50, 5}},
		{160, 0, {100, 50, 10}},
		{161, -EMSGSIZE, {100, 50, 10}},
		{0xffffffff, -EMSGSIZE, {100, 50, 10}},
	};

	for (const auto &c : cases) {
		SCOPED_TRACE(c.written);
		xr_seg segs[3];

		memcpy(segs, orig, sizeof(segs));
		EXPECT_EQ(xr_chunk_fill(segs, 3, c.written), c.ret);
		for (int i = 0; i < 3; i++) {
			EXPECT_EQ(segs[i].sg_length, c.want[i]);
			EXPECT_EQ(segs[i].sg_handle, orig[i].sg_handle);
		}
	}

	xr_seg big[2] = {{1, 0xffffffff, 0}, {2, 1, 0}};
	EXPECT_EQ(xr_chunk_fill(big, 2, 1), -EOVERFLOW);
	EXPECT_EQ(big[0].sg_length, 0xffffffffu);
}

TEST(Helpers, ReadChunksOfAHdrBeingBuilt)
{
	HdrBuf h = BuildHdr(XR_RDMA_MSG);
	xr_read_chunk rc;

	EXPECT_EQ(xr_read_chunk_count(&h), 0u);
	EXPECT_EQ(xr_read_chunk_get(&h, 0, &rc), -ENOENT);
	AddRead(&h, 64, {1, 0xffffffff, 0});
	AddRead(&h, 64, {2, 1, 0});
	AddRead(&h, 0, kA);
	EXPECT_EQ(xr_read_chunk_count(&h), 2u);
	EXPECT_TRUE(xr_read_has_pos_zero(&h));
	EXPECT_EQ(xr_read_chunk_get(&h, 0, &rc), -EOVERFLOW);
	ASSERT_EQ(xr_read_chunk_get(&h, 1, &rc), 0);
	EXPECT_EQ(rc.rc_first, 2u);

	// A count beyond the array is clamped, never followed.
	h.hd_nreads = 0xffffffff;
	EXPECT_LE(xr_read_chunk_count(&h), uint32_t(XR_MAX_SEGS));
}

// ---- RFC 8797 private data --------------------------------------------------

TEST(CmPdata, EncodeKnownBytes)
{
	xr_cm_pdata pd = {4096, 4096, XR_CM_SWI_OK};
	uint8_t buf[8];
	const uint8_t want[8] = {0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3};

	ASSERT_EQ(xr_cm_pdata_encode(buf, sizeof(buf), &pd), XR_CM_PDATA_SIZE);
	EXPECT_EQ(memcmp(buf, want, 8), 0);

	pd = {1024, 256 * 1024, 0};
	const uint8_t want2[8] = {0xf6, 0xab, 0x0e, 0x18, 1, 0, 0, 255};
	ASSERT_EQ(xr_cm_pdata_encode(buf, sizeof(buf), &pd), 8);
	EXPECT_EQ(memcmp(buf, want2, 8), 0);
}

TEST(CmPdata, EncodeRoundsDownAndCaps)
{
	struct {
		uint32_t size;
		uint8_t code;
	} cases[] = {
		{1024, 0}, {2047, 0}, {2048, 1}, {5000, 3}, {65536, 63},
		{262143, 254}, {262144, 255}, {262145, 255}, {1 << 30, 255},
		{0xffffffff, 255},
	};
	uint8_t buf[8];

	for (const auto &c : cases) {
		SCOPED_TRACE(c.size);
		xr_cm_pdata pd = {c.size, 1024, 0};

		ASSERT_EQ(xr_cm_pdata_encode(buf, 8, &pd), 8);
		EXPECT_EQ(buf[6], c.code);
	}
}

// What a side advertises for a size is what it may send: the size rounded
// down to the format's unit, and no more than it can carry.
TEST(CmPdata, SizeCarried)
{
	const struct {
		uint32_t size, carried;
	} cases[] = {
		{1024, 1024}, {1025, 1024}, {2047, 1024}, {2048, 2048},
		{6000, 5120}, {8192, 8192}, {65535, 64512}, {65536, 65536},
		{262144, 262144}, {262145, 262144}, {0xffffffff, 262144},
	};
	uint8_t buf[8];
	xr_cm_pdata got;

	for (const auto &c : cases) {
		SCOPED_TRACE(c.size);
		xr_cm_pdata pd = {c.size, c.size, 0};

		EXPECT_EQ(xr_cm_size_carried(c.size), c.carried);
		ASSERT_EQ(xr_cm_pdata_encode(buf, 8, &pd), 8);
		ASSERT_EQ(xr_cm_pdata_decode(buf, 8, &got), 0);
		EXPECT_EQ(got.cp_send_size, c.carried);
		EXPECT_EQ(got.cp_recv_size, c.carried);
	}
}

TEST(CmPdata, EncodeRefusals)
{
	uint8_t buf[16];
	xr_cm_pdata pd = {4096, 4096, XR_CM_SWI_OK | 0x80};

	for (size_t len = 0; len < XR_CM_PDATA_SIZE; len++) {
		memset(buf, 0x5a, sizeof(buf));
		EXPECT_EQ(xr_cm_pdata_encode(buf, len, &pd), -EMSGSIZE);
		for (uint8_t b : buf)
			ASSERT_EQ(b, 0x5a);
	}
	// Only the defined flag reaches the wire.
	ASSERT_EQ(xr_cm_pdata_encode(buf + 1, 8, &pd), 8);
	EXPECT_EQ(buf[1 + 5], 1);

	pd = {1023, 4096, 0};
	EXPECT_EQ(xr_cm_pdata_encode(buf, 8, &pd), -EINVAL);
	pd = {4096, 0, 0};
	EXPECT_EQ(xr_cm_pdata_encode(buf, 8, &pd), -EINVAL);
}

TEST(CmPdata, DecodeRoundTripAnyAlignment)
{
	uint8_t buf[16];

	for (uint32_t code = 0; code < 256; code++) {
		for (size_t align = 0; align < 4; align++) {
			xr_cm_pdata pd = {(code + 1) * 1024,
					  (256 - code) * 1024,
					  code & 1 ? uint32_t(XR_CM_SWI_OK) : 0u};
			xr_cm_pdata got;

			ASSERT_EQ(xr_cm_pdata_encode(buf + align, 8, &pd), 8);
			ASSERT_EQ(xr_cm_pdata_decode(buf + align, 8, &got), 0);
			EXPECT_EQ(got.cp_send_size, pd.cp_send_size);
			EXPECT_EQ(got.cp_recv_size, pd.cp_recv_size);
			EXPECT_EQ(got.cp_flags, pd.cp_flags);
		}
	}
}

TEST(CmPdata, DecodeFixedBytes)
{
	// InfiniBand CM pads private data: extra bytes are ignored, and so
	// are the reserved flag bits.
	uint8_t buf[92] = {0xf6, 0xab, 0x0e, 0x18, 1, 0xfe, 0, 255};
	xr_cm_pdata pd;

	memset(buf + 8, 0xee, sizeof(buf) - 8);
	ASSERT_EQ(xr_cm_pdata_decode(buf, sizeof(buf), &pd), 0);
	EXPECT_EQ(pd.cp_send_size, 1024u);
	EXPECT_EQ(pd.cp_recv_size, 256u * 1024);
	EXPECT_EQ(pd.cp_flags, 0u);
	buf[5] = 0xff;
	ASSERT_EQ(xr_cm_pdata_decode(buf, 8, &pd), 0);
	EXPECT_EQ(pd.cp_flags, uint32_t(XR_CM_SWI_OK));
}

TEST(CmPdata, DecodeNotPresent)
{
	const uint8_t good[8] = {0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3};
	xr_cm_pdata pd;

	auto expect_defaults = [&]() {
		EXPECT_EQ(pd.cp_send_size, uint32_t(XR_CM_INLINE_MIN));
		EXPECT_EQ(pd.cp_recv_size, uint32_t(XR_CM_INLINE_MIN));
		EXPECT_EQ(pd.cp_flags, 0u);
	};

	EXPECT_EQ(xr_cm_pdata_decode(nullptr, 0, &pd), -ENODATA);
	expect_defaults();
	for (size_t len = 0; len < 8; len++) {
		std::unique_ptr<uint8_t[]> buf(new uint8_t[len ? len : 1]);

		if (len)
			memcpy(buf.get(), good, len);
		EXPECT_EQ(xr_cm_pdata_decode(buf.get(), len, &pd), -ENODATA);
		expect_defaults();
	}
	for (int byte = 0; byte < 4; byte++) {
		uint8_t bad[8];

		memcpy(bad, good, 8);
		bad[byte] ^= 0x01;
		EXPECT_EQ(xr_cm_pdata_decode(bad, 8, &pd), -ENODATA);
		expect_defaults();
	}
	for (uint8_t vers : {0, 2, 255}) {
		uint8_t bad[8];

		memcpy(bad, good, 8);
		bad[4] = vers;
		EXPECT_EQ(xr_cm_pdata_decode(bad, 8, &pd), -ENODATA);
		expect_defaults();
	}
}

} // namespace
