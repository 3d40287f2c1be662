// SPDX-License-Identifier: GPL-2.0
/*
 * proto.c - decode RPC-over-RDMA version 1 transport headers (RFC 8166),
 * checking every chunk list against limits the caller passes in; find
 * the chunks of a decoded header; and encode and decode RDMA-CM private
 * data (RFC 8797). Transport headers are encoded in proto_encode.c. It
 * owns the wire format only: it must not post verbs, touch SUNRPC state,
 * allocate or keep state, so that it builds unchanged in userspace for
 * unit tests and fuzzing.
 */
#include "proto.h"

/*
 * What the decoder accepts
 *
 * The header comes from the peer and is treated as hostile: nothing is
 * read past @len, every count is checked against the bytes that remain
 * before it is used, and sums are formed in 64 bits. The input must be
 * 4-byte aligned (receive buffers are) and is read one XDR word at a time.
 *
 * Fixed part (RFC 8166, Section 4.2): at least 16 bytes, else -EBADMSG
 * and the XID is unknown. A version other than 1 gives -EPROTONOSUPPORT
 * before anything else is looked at (Sections 4.2.2 and 4.5.1: the
 * responder answers ERR_VERS). RDMA_MSGP and RDMA_DONE are no longer
 * part of version 1 (Section 4.6) and, like any other unknown rdma_proc,
 * give -EOPNOTSUPP; Section 4.5.2 names an invalid rdma_proc as an XDR
 * error, answered with ERR_CHUNK. A length that is not a whole number of
 * XDR words (RFC 4506, Section 3) is malformed.
 *
 * Chunk lists (RFC 8166, Sections 3.4 and 4.3), all -EBADMSG unless said:
 *  - each "optional-data" discriminator (RFC 4506, Section 4.19) is 0 or 1;
 *  - a segment's offset plus length must not pass the end of the 64-bit
 *    address space (Section 3.4.3: a segment is a contiguous region);
 *  - a Read segment's Position is an XDR position, so a multiple of 4;
 *  - a Read chunk is the run of consecutive Read segments that share one
 *    Position (Section 3.4.5: the receiver concatenates segments with that
 *    Position); Positions must rise from one chunk to the next, so a
 *    Position cannot come back after another one and the run is contiguous.
 *    RFC 8166 does not spell the ordering out; the version 2 work makes it
 *    a MUST, and an unordered list cannot be reassembled in one pass;
 *  - Positions count bytes of the unreduced RPC message (Section 3.4.5),
 *    so a data-item chunk at Position P with length L occupies [P, P + L)
 *    there: the next chunk may not start before P + L, and P + L must fit
 *    in 32 bits. The Position-zero chunk carries the (reduced) message
 *    itself (Section 3.5.3), so later chunks may point inside it;
 *  - the total length of a chunk must fit in 32 bits (XDR lengths are 32
 *    bits), and at most @lim->lm_max_chunk_len (-E2BIG);
 *  - a Write chunk or Reply chunk with zero segments: Section 3.4.6 gives
 *    the empty Write chunk a meaning only in a reply, where the responder
 *    returns an unused chunk; a requester gains nothing by offering one.
 *    Rejected in a call, accepted in a reply (%XR_LIM_REPLY);
 *  - a reply carries no Read list: version 1 has only the Read-Write
 *    transfer model (Sections 3.1 and 4.6.2), so a requester has nothing
 *    that would read from the responder;
 *  - segment and chunk counts beyond @lim give -E2BIG. Each item is first
 *    checked for being well formed, so a malformed item reads -EBADMSG
 *    even when it would also be too large; nothing after the first item
 *    over a limit is examined.
 *
 * Per procedure:
 *  - RDMA_MSG: the RPC message follows the header (Section 3.5.1), so the
 *    payload holds at least its XID, which must equal rdma_xid (Section
 *    4.2.1; Section 4.5.2 names a mismatch as an XDR error). A Position-
 *    zero Read chunk would put the message in a chunk as well: rejected.
 *    Whether other Read chunk Positions fall inside the payload depends on
 *    the XDR padding of the reduced items and is left to the reassembler.
 *  - RDMA_NOMSG: the message is in a chunk (Section 3.5.3): a call needs a
 *    Position-zero Read chunk, a reply a Reply chunk with segments (Section
 *    4.5.2 names a NOMSG with no chunks as an XDR error). Nothing may
 *    follow the header.
 *  - RDMA_ERROR: rdma_err is ERR_VERS (with vers_low <= vers_high) or
 *    ERR_CHUNK, and nothing follows it.
 *
 * Credits are not judged here: what to grant or accept is the caller's.
 */

struct xr_xdr {
	const __be32 *xx_start;
	const __be32 *xx_p;
	size_t xx_left;		/* whole XDR words left */
};

/* Bytes consumed so far; a header is far shorter than 4 GiB. */
static u32 xr_xdr_used(const struct xr_xdr *xx)
{
	return (u32)(xx->xx_p - xx->xx_start) * XR_XDR_UNIT;
}

static bool xr_xdr_u32(struct xr_xdr *xx, u32 *val)
{
	if (!xx->xx_left)
		return false;
	*val = be32_to_cpup(xx->xx_p);
	xx->xx_p++;
	xx->xx_left--;
	return true;
}

/* Read the segment at @p; the caller made sure four words are there. */
static void xr_seg_peek(const __be32 *p, struct xr_seg *seg)
{
	seg->sg_handle = be32_to_cpup(p);
	seg->sg_length = be32_to_cpup(p + 1);
	seg->sg_offset = (u64)be32_to_cpup(p + 2) << 32 | be32_to_cpup(p + 3);
}

static void xr_xdr_seg(struct xr_xdr *xx, struct xr_seg *seg)
{
	xr_seg_peek(xx->xx_p, seg);
	xx->xx_p += XR_SEG_SIZE / XR_XDR_UNIT;
	xx->xx_left -= XR_SEG_SIZE / XR_XDR_UNIT;
}

/* Does the segment's last byte lie beyond the 64-bit address space? */
static bool xr_seg_wraps(const struct xr_seg *seg)
{
	return seg->sg_length && seg->sg_length - 1 > U64_MAX - seg->sg_offset;
}

static u32 xr_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

static bool xr_limits_ok(const struct xr_limits *lim)
{
	return lim->lm_max_read_segs <= XR_MAX_SEGS &&
	       lim->lm_max_write_chunks <= XR_MAX_WRITE_CHUNKS &&
	       lim->lm_max_chunk_segs <= XR_MAX_SEGS &&
	       lim->lm_max_segs <= XR_MAX_SEGS;
}

/* A Read chunk ended: judge its total length. */
static int xr_read_chunk_done(u32 position, u64 length,
			      const struct xr_limits *lim)
{
	if ((u64)position + length > U32_MAX)
		return -EBADMSG;
	if (length > lim->lm_max_chunk_len)
		return -E2BIG;
	return 0;
}

/*
 * The lists are counted in full while they are checked, and stored as far
 * as the caller's storage reaches; xr_hdr_fit() judges the rest. A
 * Position-zero chunk is the first one (Positions rise): @pos_zero says
 * whether there is one even when nothing could be stored.
 */
static int xr_decode_read_list(struct xr_xdr *xx, const struct xr_limits *lim,
			       struct xr_hdr *hdr, bool *pos_zero)
{
	u32 chunk_pos = 0;
	u64 chunk_len = 0;
	u32 n = 0;
	int ret;

	for (;;) {
		struct xr_seg seg;
		u32 disc, pos;

		if (!xr_xdr_u32(xx, &disc))
			return -EBADMSG;
		if (!disc)
			break;
		if (disc != 1 || (lim->lm_flags & XR_LIM_REPLY))
			return -EBADMSG;
		if (xx->xx_left < 1 + XR_SEG_SIZE / XR_XDR_UNIT)
			return -EBADMSG;
		xr_xdr_u32(xx, &pos);
		xr_xdr_seg(xx, &seg);
		if (pos % XR_XDR_UNIT || xr_seg_wraps(&seg))
			return -EBADMSG;

		if (n && pos != chunk_pos) {
			if (pos < chunk_pos)
				return -EBADMSG;
			ret = xr_read_chunk_done(chunk_pos, chunk_len, lim);
			if (ret)
				return ret;
			if (chunk_pos && pos < chunk_pos + chunk_len)
				return -EBADMSG;
			chunk_len = 0;
		}
		if (n >= lim->lm_max_read_segs || n >= lim->lm_max_segs)
			return -E2BIG;

		if (!n && !pos)
			*pos_zero = true;
		chunk_pos = pos;
		chunk_len += seg.sg_length;
		if (n < hdr->hd_max_reads) {
			hdr->hd_reads[n].rs_position = pos;
			hdr->hd_reads[n].rs_seg = seg;
		}
		hdr->hd_nreads = ++n;
	}
	if (n)
		return xr_read_chunk_done(chunk_pos, chunk_len, lim);
	return 0;
}

/* One counted array of segments: a Write chunk or the Reply chunk. */
static int xr_decode_chunk(struct xr_xdr *xx, const struct xr_limits *lim,
			   struct xr_hdr *hdr, struct xr_write_chunk *wc)
{
	const u32 seg_words = XR_SEG_SIZE / XR_XDR_UNIT;
	u64 length = 0;
	u32 nsegs, i;

	if (!xr_xdr_u32(xx, &nsegs))
		return -EBADMSG;
	if (nsegs > xx->xx_left / seg_words)
		return -EBADMSG;
	if (!nsegs && !(lim->lm_flags & XR_LIM_REPLY))
		return -EBADMSG;

	/* Judge the whole chunk before taking anything from it. */
	for (i = 0; i < nsegs; i++) {
		struct xr_seg seg;

		xr_seg_peek(xx->xx_p + i * seg_words, &seg);
		if (xr_seg_wraps(&seg))
			return -EBADMSG;
		length += seg.sg_length;
	}
	if (length > U32_MAX)
		return -EBADMSG;
	if (nsegs > lim->lm_max_chunk_segs ||
	    nsegs > lim->lm_max_segs - hdr->hd_nreads - hdr->hd_nsegs ||
	    length > lim->lm_max_chunk_len)
		return -E2BIG;

	wc->wc_first = hdr->hd_nsegs;
	wc->wc_nsegs = nsegs;
	for (i = 0; i < nsegs; i++) {
		struct xr_seg seg;

		xr_xdr_seg(xx, &seg);
		if (hdr->hd_nsegs < hdr->hd_max_segs)
			hdr->hd_segs[hdr->hd_nsegs] = seg;
		hdr->hd_nsegs++;
	}
	return 0;
}

static int xr_decode_write_list(struct xr_xdr *xx, const struct xr_limits *lim,
				struct xr_hdr *hdr)
{
	for (;;) {
		struct xr_write_chunk wc;
		u32 disc;
		int ret;

		if (!xr_xdr_u32(xx, &disc))
			return -EBADMSG;
		if (!disc)
			return 0;
		if (disc != 1)
			return -EBADMSG;
		ret = xr_decode_chunk(xx, lim, hdr, &wc);
		if (ret)
			return ret;
		if (hdr->hd_nwrites >= lim->lm_max_write_chunks)
			return -E2BIG;
		if (hdr->hd_nwrites < hdr->hd_max_writes)
			hdr->hd_writes[hdr->hd_nwrites] = wc;
		hdr->hd_nwrites++;
	}
}

static int xr_decode_reply_chunk(struct xr_xdr *xx,
				 const struct xr_limits *lim,
				 struct xr_hdr *hdr)
{
	u32 disc;
	int ret;

	if (!xr_xdr_u32(xx, &disc) || disc > 1)
		return -EBADMSG;
	if (!disc)
		return 0;
	ret = xr_decode_chunk(xx, lim, hdr, &hdr->hd_reply);
	if (ret)
		return ret;
	hdr->hd_flags |= XR_HDR_REPLY_CHUNK;
	return 0;
}

static int xr_decode_msg(struct xr_xdr *xx, const struct xr_limits *lim,
			 struct xr_hdr *hdr)
{
	bool pos_zero = false;
	int ret;

	ret = xr_decode_read_list(xx, lim, hdr, &pos_zero);
	if (ret)
		return ret;
	ret = xr_decode_write_list(xx, lim, hdr);
	if (ret)
		return ret;
	ret = xr_decode_reply_chunk(xx, lim, hdr);
	if (ret)
		return ret;
	hdr->hd_hdr_len = xr_xdr_used(xx);

	if (hdr->hd_proc == XR_RDMA_MSG) {
		if (pos_zero)
			return -EBADMSG;
		if (!xx->xx_left || *xx->xx_p != hdr->hd_xid)
			return -EBADMSG;
		return 0;
	}

	if (xx->xx_left)
		return -EBADMSG;
	if (lim->lm_flags & XR_LIM_REPLY) {
		if (!(hdr->hd_flags & XR_HDR_REPLY_CHUNK) ||
		    !hdr->hd_reply.wc_nsegs)
			return -EBADMSG;
	} else if (!pos_zero) {
		return -EBADMSG;
	}
	return 0;
}

/*
 * Leave the counts within the caller's storage, whatever @ret. A header
 * that is valid but did not fit gives -ENOSPC.
 */
static int xr_hdr_fit(struct xr_hdr *hdr, int ret)
{
	bool fits = hdr->hd_nreads <= hdr->hd_max_reads &&
		    hdr->hd_nwrites <= hdr->hd_max_writes &&
		    hdr->hd_nsegs <= hdr->hd_max_segs;

	if (fits)
		return ret;
	hdr->hd_nreads = xr_min(hdr->hd_nreads, hdr->hd_max_reads);
	hdr->hd_nwrites = xr_min(hdr->hd_nwrites, hdr->hd_max_writes);
	hdr->hd_nsegs = xr_min(hdr->hd_nsegs, hdr->hd_max_segs);
	hdr->hd_reply.wc_first = 0;
	hdr->hd_reply.wc_nsegs = 0;
	hdr->hd_flags &= ~XR_HDR_REPLY_CHUNK;
	return ret ? ret : -ENOSPC;
}

static int xr_decode_error(struct xr_xdr *xx, struct xr_hdr *hdr)
{
	if (!xr_xdr_u32(xx, &hdr->hd_err))
		return -EBADMSG;
	switch (hdr->hd_err) {
	case XR_ERR_VERS:
		if (xx->xx_left != 2)
			return -EBADMSG;
		xr_xdr_u32(xx, &hdr->hd_vers_low);
		xr_xdr_u32(xx, &hdr->hd_vers_high);
		if (hdr->hd_vers_low > hdr->hd_vers_high)
			return -EBADMSG;
		break;
	case XR_ERR_CHUNK:
		if (xx->xx_left)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	hdr->hd_hdr_len = xr_xdr_used(xx);
	return 0;
}

/**
 * xr_hdr_decode - parse and check a received transport header
 * @buf: the received bytes, 4-byte aligned
 * @len: how many bytes @buf holds, header and any inline RPC message
 * @lim: the largest chunk lists the caller accepts, and the direction
 * @hdr: filled in from @buf; owned by the caller, its list storage
 *	attached (xr_hdr_attach())
 *
 * The rules applied, and the RFC sections they come from, are listed at
 * the top of proto.c. What is valid in @hdr depends on the result:
 * %XR_HDR_XID in @hdr->hd_flags says that hd_xid, hd_vers, hd_credits
 * and hd_proc were read (whenever @len reached 16 bytes); everything
 * else only when 0 is returned. Counts are always left within the
 * attached storage, so a partly filled @hdr is still safe to look at.
 * The limits in @lim are checked before the storage: a header over
 * @lim is -E2BIG whatever the storage, and -ENOSPC means a header that
 * is valid in every respect but needs more storage than is attached (a
 * caller attaching storage for @lim never sees it).
 *
 * Return values:
 *   %0: a valid header; @hdr->hd_hdr_len is where an RDMA_MSG's RPC
 *       message begins (for other procedures it is @len)
 *   %-EPROTONOSUPPORT: rdma_vers is not 1; answer ERR_VERS to hd_xid
 *   %-EOPNOTSUPP: rdma_proc is RDMA_MSGP, RDMA_DONE or unknown (see
 *       hd_proc); answer ERR_CHUNK
 *   %-EBADMSG: malformed: too short, truncated, trailing bytes where none
 *       may be, or a chunk list that breaks a rule; answer ERR_CHUNK if
 *       %XR_HDR_XID is set, else drop
 *   %-E2BIG: well formed as far as examined, but over one of @lim's
 *       limits; answer ERR_CHUNK
 *   %-ENOSPC: valid, but its lists need more storage than is attached;
 *       decode again with storage for @lim
 *   %-EINVAL: caller error: @buf not 4-byte aligned, or @lim above the
 *       compile-time maxima; nothing was read
 */
int xr_hdr_decode(const void *buf, size_t len, const struct xr_limits *lim,
		  struct xr_hdr *hdr)
{
	struct xr_xdr xx = {
		.xx_start = buf,
		.xx_p = buf,
		.xx_left = len / XR_XDR_UNIT,
	};
	u32 vers, credits, proc;

	hdr->hd_flags = 0;
	hdr->hd_hdr_len = 0;
	hdr->hd_err = 0;
	hdr->hd_vers_low = 0;
	hdr->hd_vers_high = 0;
	hdr->hd_nreads = 0;
	hdr->hd_nwrites = 0;
	hdr->hd_nsegs = 0;
	hdr->hd_reply.wc_first = 0;
	hdr->hd_reply.wc_nsegs = 0;

	if (!xr_aligned(buf) || !xr_limits_ok(lim))
		return -EINVAL;
	if (len < XR_HDR_FIXED_SIZE)
		return -EBADMSG;

	hdr->hd_xid = *xx.xx_p;
	xx.xx_p++;
	xx.xx_left--;
	xr_xdr_u32(&xx, &vers);
	xr_xdr_u32(&xx, &credits);
	xr_xdr_u32(&xx, &proc);
	hdr->hd_vers = vers;
	hdr->hd_credits = credits;
	hdr->hd_proc = proc;
	hdr->hd_flags = XR_HDR_XID;

	if (vers != XR_VERSION)
		return -EPROTONOSUPPORT;
	if (proc != XR_RDMA_MSG && proc != XR_RDMA_NOMSG &&
	    proc != XR_RDMA_ERROR)
		return -EOPNOTSUPP;
	if (len % XR_XDR_UNIT)
		return -EBADMSG;

	if (proc == XR_RDMA_ERROR)
		return xr_decode_error(&xx, hdr);
	return xr_hdr_fit(hdr, xr_decode_msg(&xx, lim, hdr));
}

static u32 xr_nreads(const struct xr_hdr *hdr)
{
	return xr_min(hdr->hd_nreads, hdr->hd_max_reads);
}

/**
 * xr_read_chunk_count - how many Read chunks a header carries
 * @hdr: a decoded header, or one being built
 *
 * A Read chunk is a run of consecutive Read segments with one Position.
 *
 * Return values: the number of Read chunks (0 for an empty Read list).
 */
u32 xr_read_chunk_count(const struct xr_hdr *hdr)
{
	u32 n = xr_nreads(hdr), count = 0, i;

	for (i = 0; i < n; i++)
		if (!i || hdr->hd_reads[i].rs_position !=
			  hdr->hd_reads[i - 1].rs_position)
			count++;
	return count;
}

/**
 * xr_read_has_pos_zero - does the Read list carry a Position-zero chunk?
 * @hdr: a decoded header, or one being built
 *
 * A Position-zero Read chunk carries a whole RPC call (RFC 8166, Section
 * 3.5.3): the requester sent RDMA_NOMSG.
 *
 * Return values: true if any Read segment has Position zero.
 */
bool xr_read_has_pos_zero(const struct xr_hdr *hdr)
{
	u32 n = xr_nreads(hdr), i;

	for (i = 0; i < n; i++)
		if (!hdr->hd_reads[i].rs_position)
			return true;
	return false;
}

/**
 * xr_hdr_inv_rkey - the one handle a reply may invalidate remotely
 * @hdr: a decoded call
 * @rkey: set to that handle when there is one
 *
 * Send With Invalidate (RFC 8797, Section 4; RFC 8166, Section 3.4.7)
 * invalidates one R_key. The responder may use it only when every
 * segment of the call's Read list, Write list and Reply chunk carries the
 * same handle: the requester registered all of them as one region, and
 * invalidating it leaves no other region of the call reachable.
 *
 * Return values: true when the call has at least one segment and all
 * share one handle; false otherwise (@rkey is then left alone).
 */
bool xr_hdr_inv_rkey(const struct xr_hdr *hdr, u32 *rkey)
{
	u32 nreads = xr_nreads(hdr), i, handle;
	u32 nsegs = xr_min(hdr->hd_nsegs, hdr->hd_max_segs);

	if (nreads)
		handle = hdr->hd_reads[0].rs_seg.sg_handle;
	else if (nsegs)
		handle = hdr->hd_segs[0].sg_handle;
	else
		return false;
	for (i = 0; i < nreads; i++)
		if (hdr->hd_reads[i].rs_seg.sg_handle != handle)
			return false;
	for (i = 0; i < nsegs; i++)
		if (hdr->hd_segs[i].sg_handle != handle)
			return false;
	*rkey = handle;
	return true;
}

/**
 * xr_read_chunk_get - find one Read chunk of a header
 * @hdr: a decoded header, or one being built
 * @index: which chunk, counting from 0 in Read list order
 * @found: filled in with the chunk's position, segments and length
 *
 * Return values:
 *   %0: @found describes Read chunk @index
 *   %-ENOENT: the header has no more than @index Read chunks
 *   %-EOVERFLOW: the chunk's length does not fit in 32 bits
 */
int xr_read_chunk_get(const struct xr_hdr *hdr, u32 index,
		      struct xr_read_chunk *found)
{
	u32 n = xr_nreads(hdr), first = 0, chunk = 0, end;
	u64 length;

	while (first < n) {
		u32 pos = hdr->hd_reads[first].rs_position;

		length = 0;
		for (end = first; end < n &&
		     hdr->hd_reads[end].rs_position == pos; end++)
			length += hdr->hd_reads[end].rs_seg.sg_length;
		if (chunk == index) {
			if (length > U32_MAX)
				return -EOVERFLOW;
			found->rc_position = pos;
			found->rc_first = first;
			found->rc_nsegs = end - first;
			found->rc_length = (u32)length;
			return 0;
		}
		chunk++;
		first = end;
	}
	return -ENOENT;
}

/* RFC 8797 sizes travel as (bytes / 1024) - 1 in one byte. */
static u8 xr_cm_size_to_wire(u32 size)
{
	if (size > XR_CM_INLINE_MAX)
		size = XR_CM_INLINE_MAX;
	return (u8)(size / XR_CM_INLINE_UNIT - 1);
}

static u32 xr_cm_size_from_wire(u8 code)
{
	return ((u32)code + 1) * XR_CM_INLINE_UNIT;
}

/**
 * xr_cm_size_carried - the size RFC 8797 private data says for a size
 * @size: an inline size of this side, in bytes, at least
 *	%XR_CM_INLINE_MIN
 *
 * The format carries multiples of 1024 up to 256 KiB: what
 * xr_cm_pdata_encode() advertises for @size. A side sends no larger
 * than it advertised, so its limit is this, not @size: a peer may size
 * its Receive buffers by what it was told.
 *
 * Return: @size rounded down to a multiple of 1024, at most 256 KiB.
 */
u32 xr_cm_size_carried(u32 size)
{
	return xr_cm_size_from_wire(xr_cm_size_to_wire(size));
}

/**
 * xr_cm_pdata_encode - write RFC 8797 private data for a connect or accept
 * @buf: where to write; any alignment
 * @len: room at @buf, in bytes
 * @pd: the sizes to advertise, and %XR_CM_SWI_OK if this side accepts
 *	Send With Invalidate
 *
 * Sizes are rounded down to a multiple of 1024 and capped at 256 KiB,
 * the largest the format can carry; advertising less than one can do
 * is always safe. Reserved bits are written as zero.
 *
 * Return values:
 *   %XR_CM_PDATA_SIZE: bytes written
 *   %-EMSGSIZE: @len is under %XR_CM_PDATA_SIZE; nothing written
 *   %-EINVAL: a size under 1024 bytes, which the format cannot carry
 */
int xr_cm_pdata_encode(void *buf, size_t len, const struct xr_cm_pdata *pd)
{
	__be32 magic = cpu_to_be32(XR_CM_PDATA_MAGIC);
	u8 *p = buf;

	if (pd->cp_send_size < XR_CM_INLINE_MIN ||
	    pd->cp_recv_size < XR_CM_INLINE_MIN)
		return -EINVAL;
	if (len < XR_CM_PDATA_SIZE)
		return -EMSGSIZE;

	memcpy(p, &magic, sizeof(magic));
	p[4] = XR_CM_PDATA_VERSION;
	p[5] = pd->cp_flags & XR_CM_SWI_OK;
	p[6] = xr_cm_size_to_wire(pd->cp_send_size);
	p[7] = xr_cm_size_to_wire(pd->cp_recv_size);
	return XR_CM_PDATA_SIZE;
}

/**
 * xr_cm_pdata_decode - read the peer's RFC 8797 private data
 * @buf: the private data the connection manager delivered; any alignment;
 *	may be NULL when @len is 0
 * @len: its length; may exceed %XR_CM_PDATA_SIZE (InfiniBand CM pads
 *	private data to a fixed size), the extra bytes are ignored
 * @pd: the peer's sizes and flags; on -ENODATA the version 1 defaults
 *	(1024-byte inline sizes, no Send With Invalidate)
 *
 * Decoded sizes lie in [1024, 256 KiB] by construction. Reserved flag
 * bits are ignored.
 *
 * Return values:
 *   %0: the peer sent RFC 8797 private data; @pd holds it
 *   %-ENODATA: none present: too short, another Format Identifier or a
 *       Version other than 1. Use @pd's defaults, the version 1
 *       inline threshold of RFC 8166, Section 3.3.2
 */
int xr_cm_pdata_decode(const void *buf, size_t len, struct xr_cm_pdata *pd)
{
	const u8 *p = buf;
	__be32 magic;

	pd->cp_send_size = XR_CM_INLINE_MIN;
	pd->cp_recv_size = XR_CM_INLINE_MIN;
	pd->cp_flags = 0;

	if (len < XR_CM_PDATA_SIZE)
		return -ENODATA;
	memcpy(&magic, p, sizeof(magic));
	if (be32_to_cpu(magic) != XR_CM_PDATA_MAGIC ||
	    p[4] != XR_CM_PDATA_VERSION)
		return -ENODATA;

	pd->cp_flags = p[5] & XR_CM_SWI_OK;
	pd->cp_send_size = xr_cm_size_from_wire(p[6]);
	pd->cp_recv_size = xr_cm_size_from_wire(p[7]);
	return 0;
}
