// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_decode.c - libFuzzer target for module/proto*.c. Every input is
 * decoded as a transport header under tight and loose limits, as a call
 * and as a reply, and as RFC 8797 private data. Whatever decodes must
 * re-encode to the same bytes and decode again to the same header, and
 * decoding into storage smaller than the lists gives the same answer, or
 * -ENOSPC exactly when a valid header did not fit.
 * Any failed check aborts, which libFuzzer reports as a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static const struct xr_limits fuzz_limits[] = {
	{ 2, 1, 2, 4, 64 * 1024, 0 },
	{ 2, 1, 2, 4, 64 * 1024, XR_LIM_REPLY },
	{ XR_MAX_SEGS, XR_MAX_WRITE_CHUNKS, XR_MAX_SEGS, XR_MAX_SEGS,
	  U32_MAX, 0 },
	{ XR_MAX_SEGS, XR_MAX_WRITE_CHUNKS, XR_MAX_SEGS, XR_MAX_SEGS,
	  U32_MAX, XR_LIM_REPLY },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static int same_seg(const struct xr_seg *a, const struct xr_seg *b)
{
	return a->sg_handle == b->sg_handle && a->sg_length == b->sg_length &&
	       a->sg_offset == b->sg_offset;
}

static int same_chunk(const struct xr_hdr *a, const struct xr_write_chunk *x,
		      const struct xr_hdr *b, const struct xr_write_chunk *y)
{
	u32 i;

	if (x->wc_nsegs != y->wc_nsegs)
		return 0;
	for (i = 0; i < x->wc_nsegs; i++)
		if (!same_seg(&a->hd_segs[x->wc_first + i],
			      &b->hd_segs[y->wc_first + i]))
			return 0;
	return 1;
}

static int same_hdr(const struct xr_hdr *a, const struct xr_hdr *b)
{
	u32 i;

	if (a->hd_xid != b->hd_xid || a->hd_vers != b->hd_vers ||
	    a->hd_credits != b->hd_credits || a->hd_proc != b->hd_proc ||
	    a->hd_flags != b->hd_flags || a->hd_hdr_len != b->hd_hdr_len ||
	    a->hd_nreads != b->hd_nreads || a->hd_nwrites != b->hd_nwrites ||
	    a->hd_nsegs != b->hd_nsegs)
		return 0;
	if (a->hd_proc == XR_RDMA_ERROR)
		return a->hd_err == b->hd_err &&
		       a->hd_vers_low == b->hd_vers_low &&
		       a->hd_vers_high == b->hd_vers_high;
	for (i = 0; i < a->hd_nreads; i++)
		if (a->hd_reads[i].rs_position != b->hd_reads[i].rs_position ||
		    !same_seg(&a->hd_reads[i].rs_seg, &b->hd_reads[i].rs_seg))
			return 0;
	for (i = 0; i < a->hd_nwrites; i++)
		if (!same_chunk(a, &a->hd_writes[i], b, &b->hd_writes[i]))
			return 0;
	if ((a->hd_flags & XR_HDR_REPLY_CHUNK) &&
	    !same_chunk(a, &a->hd_reply, b, &b->hd_reply))
		return 0;
	return 1;
}

/* What a successful decode promises about the header it filled in. */
static void check_valid(const struct xr_hdr *hdr, size_t size,
			const struct xr_limits *lim)
{
	struct xr_read_chunk rc;
	u32 i, nsegs = 0, nchunks;

	CHECK(hdr->hd_flags & XR_HDR_XID);
	CHECK(hdr->hd_vers == XR_VERSION);
	CHECK(hdr->hd_hdr_len >= XR_HDR_FIXED_SIZE);
	CHECK(hdr->hd_hdr_len <= size);
	CHECK(hdr->hd_hdr_len % 4 == 0);
	CHECK(hdr->hd_nreads <= lim->lm_max_read_segs);
	CHECK(hdr->hd_nwrites <= lim->lm_max_write_chunks);
	CHECK(hdr->hd_nreads + hdr->hd_nsegs <= lim->lm_max_segs);
	if (hdr->hd_proc != XR_RDMA_MSG)
		CHECK(hdr->hd_hdr_len == size);
	if (lim->lm_flags & XR_LIM_REPLY)
		CHECK(hdr->hd_nreads == 0);

	nchunks = xr_read_chunk_count(hdr);
	for (i = 0; i < nchunks; i++) {
		CHECK(xr_read_chunk_get(hdr, i, &rc) == 0);
		CHECK(rc.rc_first == nsegs);
		CHECK(rc.rc_position % 4 == 0);
		CHECK(rc.rc_length <= lim->lm_max_chunk_len);
		nsegs += rc.rc_nsegs;
	}
	CHECK(nsegs == hdr->hd_nreads);
	CHECK(xr_read_chunk_get(hdr, nchunks, &rc) == -ENOENT);

	for (i = 0; i < hdr->hd_nwrites; i++) {
		const struct xr_write_chunk *wc = &hdr->hd_writes[i];
		u32 len;

		CHECK(wc->wc_first + wc->wc_nsegs <= hdr->hd_nsegs);
		CHECK(wc->wc_nsegs <= lim->lm_max_chunk_segs);
		CHECK(xr_chunk_length(&hdr->hd_segs[wc->wc_first],
				      wc->wc_nsegs, &len) == 0);
		CHECK(len <= lim->lm_max_chunk_len);
	}
}

/* Does re-encoding reproduce @hdr? ERR_VERS is always sent as [1, 1]. */
static int encodes_back(const struct xr_hdr *hdr)
{
	return hdr->hd_proc != XR_RDMA_ERROR || hdr->hd_err == XR_ERR_CHUNK ||
	       (hdr->hd_vers_low == 1 && hdr->hd_vers_high == 1);
}

static void round_trip(const u8 *in, size_t size,
		       const struct xr_hdr *hdr, const struct xr_limits *lim)
{
	static struct xr_hdr_buf again_buf;
	struct xr_hdr *again = xr_hdr_buf_init(&again_buf);
	u32 *out;
	int n;

	out = malloc(size + 4);
	CHECK(out);
	if (hdr->hd_proc == XR_RDMA_ERROR) {
		n = xr_hdr_encode_error(out, size, hdr->hd_xid,
					hdr->hd_credits, hdr->hd_err);
		CHECK(n > 0 && (size_t)n == size);
		if (encodes_back(hdr))
			CHECK(!memcmp(out, in, size));
	} else {
		n = xr_hdr_encode(out, size, hdr);
		CHECK(n > 0 && (u32)n == hdr->hd_hdr_len);
		/* XDR has one encoding for each header */
		CHECK(!memcmp(out, in, n));
		CHECK(xr_hdr_encode(out, n - 1, hdr) == -EMSGSIZE);
		memcpy((u8 *)out + n, in + n, size - n);
	}

	CHECK(xr_hdr_decode(out, size, lim, again) == 0);
	if (encodes_back(hdr))
		CHECK(same_hdr(hdr, again));
	free(out);
}

static void fuzz_cm_pdata(const u8 *data, size_t size)
{
	struct xr_cm_pdata pd, again;
	u8 out[XR_CM_PDATA_SIZE];

	if (xr_cm_pdata_decode(data, size, &pd)) {
		CHECK(pd.cp_send_size == XR_CM_INLINE_MIN);
		CHECK(pd.cp_recv_size == XR_CM_INLINE_MIN);
		CHECK(pd.cp_flags == 0);
		return;
	}
	CHECK(pd.cp_send_size >= XR_CM_INLINE_MIN);
	CHECK(pd.cp_send_size <= XR_CM_INLINE_MAX);
	CHECK(pd.cp_recv_size >= XR_CM_INLINE_MIN);
	CHECK(pd.cp_recv_size <= XR_CM_INLINE_MAX);
	CHECK(xr_cm_pdata_encode(out, sizeof(out), &pd) == XR_CM_PDATA_SIZE);
	CHECK(!memcmp(out, data, 5) && !memcmp(out + 6, data + 6, 2));
	CHECK(out[5] == (data[5] & XR_CM_SWI_OK));
	CHECK(xr_cm_pdata_decode(out, sizeof(out), &again) == 0);
	CHECK(!memcmp(&pd, &again, sizeof(pd)));
}

/*
 * Decode again into storage for at most two Write chunks, two Read
 * segments and three other segments: the same result when the header
 * fits, -ENOSPC for a valid one that does not, and never a write past
 * the storage.
 */
static void tight_storage(const u8 *buf, size_t size,
			  const struct xr_limits *lim, int ret,
			  const struct xr_hdr *full)
{
	static struct xr_hdr_buf tight_buf;
	struct xr_hdr *tight = &tight_buf.hb_hdr;
	bool fits;
	int again;
	size_t i;

	memset(&tight_buf, 0x5a, sizeof(tight_buf));
	xr_hdr_attach(tight, tight_buf.hb_writes, 2, tight_buf.hb_reads, 2,
		      tight_buf.hb_segs, 3);
	again = xr_hdr_decode(buf, size, lim, tight);
	fits = full->hd_nwrites <= 2 && full->hd_nreads <= 2 &&
	       full->hd_nsegs <= 3;
	if (ret)
		CHECK(again == ret);
	else if (fits)
		CHECK(again == 0 && same_hdr(full, tight));
	else
		CHECK(again == -ENOSPC);
	CHECK(tight->hd_nwrites <= 2 && tight->hd_nreads <= 2 &&
	      tight->hd_nsegs <= 3);
	for (i = 3 * sizeof(struct xr_seg); i < sizeof(tight_buf.hb_segs); i++)
		CHECK(((u8 *)tight_buf.hb_segs)[i] == 0x5a);
	for (i = 2 * sizeof(struct xr_read_seg);
	     i < sizeof(tight_buf.hb_reads); i++)
		CHECK(((u8 *)tight_buf.hb_reads)[i] == 0x5a);
	for (i = 2 * sizeof(struct xr_write_chunk);
	     i < sizeof(tight_buf.hb_writes); i++)
		CHECK(((u8 *)tight_buf.hb_writes)[i] == 0x5a);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct xr_hdr_buf hdr_buf;
	struct xr_hdr *hdrp = xr_hdr_buf_init(&hdr_buf);
	u8 *buf;
	size_t i;

	/* An exact-size, aligned copy: any over-read trips ASan. */
	buf = malloc(size ? size : 1);
	CHECK(buf);
	if (size)
		memcpy(buf, data, size);

	for (i = 0; i < ARRAY_SIZE(fuzz_limits); i++) {
		const struct xr_limits *lim = &fuzz_limits[i];
		int ret = xr_hdr_decode(buf, size, lim, hdrp);
		const struct xr_hdr hdr = *hdrp;

		CHECK(hdr.hd_nreads <= XR_MAX_SEGS);
		CHECK(hdr.hd_nwrites <= XR_MAX_WRITE_CHUNKS);
		CHECK(hdr.hd_nsegs <= XR_MAX_SEGS);
		CHECK(!!(hdr.hd_flags & XR_HDR_XID) ==
		      (size >= XR_HDR_FIXED_SIZE));
		switch (ret) {
		case 0:
			check_valid(&hdr, size, lim);
			round_trip(buf, size, &hdr, lim);
			break;
		case -EPROTONOSUPPORT:
			CHECK(hdr.hd_vers != XR_VERSION);
			break;
		case -EOPNOTSUPP:
			CHECK(hdr.hd_proc != XR_RDMA_MSG &&
			      hdr.hd_proc != XR_RDMA_NOMSG &&
			      hdr.hd_proc != XR_RDMA_ERROR);
			break;
		case -EBADMSG:
		case -E2BIG:
			break;
		default:
			CHECK(!"unexpected result");
		}
		tight_storage(buf, size, lim, ret, &hdr);
	}

	fuzz_cm_pdata(buf, size);
	free(buf);
	return 0;
}
