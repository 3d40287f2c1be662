// SPDX-License-Identifier: GPL-2.0
/*
 * proto_encode.c - encode RPC-over-RDMA version 1 transport headers
 * (RFC 8166): RDMA_MSG and RDMA_NOMSG with their chunk lists, RDMA_ERROR,
 * and the chunkless RDMA_MSG of a backward-direction call; and record what
 * a responder wrote into a chunk before it echoes the chunk. Headers are
 * decoded in proto.c. Like proto.c it owns the wire format only: it must
 * not post verbs, touch SUNRPC state, allocate or keep state, so that it
 * builds unchanged in userspace for unit tests and fuzzing.
 */
#include "proto.h"

static __be32 *xr_put_seg(__be32 *p, const struct xr_seg *seg)
{
	*p++ = cpu_to_be32(seg->sg_handle);
	*p++ = cpu_to_be32(seg->sg_length);
	*p++ = cpu_to_be32((u32)(seg->sg_offset >> 32));
	*p++ = cpu_to_be32((u32)seg->sg_offset);
	return p;
}

static bool xr_chunk_in_bounds(const struct xr_hdr *hdr,
			       const struct xr_write_chunk *wc)
{
	return wc->wc_first <= hdr->hd_max_segs &&
	       wc->wc_nsegs <= hdr->hd_max_segs - wc->wc_first;
}

static __be32 *xr_put_chunk(__be32 *p, const struct xr_hdr *hdr,
			    const struct xr_write_chunk *wc)
{
	u32 i;

	*p++ = cpu_to_be32(wc->wc_nsegs);
	for (i = 0; i < wc->wc_nsegs; i++)
		p = xr_put_seg(p, &hdr->hd_segs[wc->wc_first + i]);
	return p;
}

/* Bytes xr_hdr_encode() needs for @hdr, or 0 if @hdr is out of bounds. */
static size_t xr_hdr_size(const struct xr_hdr *hdr)
{
	size_t size = XR_HDR_FIXED_SIZE;
	u32 i;

	if (hdr->hd_nreads > hdr->hd_max_reads ||
	    hdr->hd_nwrites > hdr->hd_max_writes)
		return 0;

	size += hdr->hd_nreads * (2 * XR_XDR_UNIT + XR_SEG_SIZE);
	size += XR_XDR_UNIT;
	for (i = 0; i < hdr->hd_nwrites; i++) {
		if (!xr_chunk_in_bounds(hdr, &hdr->hd_writes[i]))
			return 0;
		size += 2 * XR_XDR_UNIT +
			hdr->hd_writes[i].wc_nsegs * XR_SEG_SIZE;
	}
	size += XR_XDR_UNIT;
	size += XR_XDR_UNIT;
	if (hdr->hd_flags & XR_HDR_REPLY_CHUNK) {
		if (!xr_chunk_in_bounds(hdr, &hdr->hd_reply))
			return 0;
		size += XR_XDR_UNIT + hdr->hd_reply.wc_nsegs * XR_SEG_SIZE;
	}
	return size;
}

/**
 * xr_hdr_encode - write an RDMA_MSG or RDMA_NOMSG transport header
 * @buf: where to write, 4-byte aligned
 * @len: room at @buf, in bytes
 * @hdr: what to write: hd_xid, hd_credits, hd_proc, the Read list, the
 *	Write list and (if %XR_HDR_REPLY_CHUNK) the Reply chunk
 *
 * rdma_vers is always written as 1, whatever @hdr->hd_vers holds. The
 * lists are written as given: a responder echoing the requester's Write
 * list and Reply chunk first sets each segment length to the bytes it
 * actually wrote there (xr_chunk_fill()). Nothing is written unless the
 * whole header fits.
 *
 * Return values:
 *   positive: bytes written; an RDMA_MSG's RPC message goes right after
 *   %-EMSGSIZE: the header does not fit in @len bytes
 *   %-EINVAL: @buf not 4-byte aligned, @hdr->hd_proc not RDMA_MSG or
 *       RDMA_NOMSG, or a count or chunk outside @hdr's attached storage
 */
int xr_hdr_encode(void *buf, size_t len, const struct xr_hdr *hdr)
{
	__be32 *p = buf;
	size_t size;
	u32 i;

	if (!xr_aligned(buf) ||
	    (hdr->hd_proc != XR_RDMA_MSG && hdr->hd_proc != XR_RDMA_NOMSG))
		return -EINVAL;
	size = xr_hdr_size(hdr);
	if (!size)
		return -EINVAL;
	if (size > len)
		return -EMSGSIZE;

	*p++ = hdr->hd_xid;
	*p++ = cpu_to_be32(XR_VERSION);
	*p++ = cpu_to_be32(hdr->hd_credits);
	*p++ = cpu_to_be32(hdr->hd_proc);

	for (i = 0; i < hdr->hd_nreads; i++) {
		*p++ = cpu_to_be32(1);
		*p++ = cpu_to_be32(hdr->hd_reads[i].rs_position);
		p = xr_put_seg(p, &hdr->hd_reads[i].rs_seg);
	}
	*p++ = cpu_to_be32(0);

	for (i = 0; i < hdr->hd_nwrites; i++) {
		*p++ = cpu_to_be32(1);
		p = xr_put_chunk(p, hdr, &hdr->hd_writes[i]);
	}
	*p++ = cpu_to_be32(0);

	if (hdr->hd_flags & XR_HDR_REPLY_CHUNK) {
		*p++ = cpu_to_be32(1);
		p = xr_put_chunk(p, hdr, &hdr->hd_reply);
	} else {
		*p++ = cpu_to_be32(0);
	}
	return (int)size;
}

/**
 * xr_hdr_encode_error - write an RDMA_ERROR transport header
 * @buf: where to write, 4-byte aligned
 * @len: room at @buf, in bytes
 * @xid: rdma_xid of the message being answered, in wire order
 * @credits: rdma_credit to grant
 * @err: %XR_ERR_VERS (written with vers_low = vers_high = 1) or
 *	%XR_ERR_CHUNK
 *
 * Return values:
 *   positive: bytes written (%XR_HDR_ERR_VERS_SIZE or
 *       %XR_HDR_ERR_CHUNK_SIZE)
 *   %-EMSGSIZE: the header does not fit in @len bytes; nothing written
 *   %-EINVAL: @buf not 4-byte aligned, or @err unknown
 */
int xr_hdr_encode_error(void *buf, size_t len, __be32 xid, u32 credits,
			u32 err)
{
	__be32 *p = buf;
	size_t size;

	if (!xr_aligned(buf))
		return -EINVAL;
	switch (err) {
	case XR_ERR_VERS:
		size = XR_HDR_ERR_VERS_SIZE;
		break;
	case XR_ERR_CHUNK:
		size = XR_HDR_ERR_CHUNK_SIZE;
		break;
	default:
		return -EINVAL;
	}
	if (size > len)
		return -EMSGSIZE;

	*p++ = xid;
	*p++ = cpu_to_be32(XR_VERSION);
	*p++ = cpu_to_be32(credits);
	*p++ = cpu_to_be32(XR_RDMA_ERROR);
	*p++ = cpu_to_be32(err);
	if (err == XR_ERR_VERS) {
		*p++ = cpu_to_be32(XR_VERSION);
		*p = cpu_to_be32(XR_VERSION);
	}
	return (int)size;
}

/**
 * xr_hdr_encode_msg - write an RDMA_MSG transport header with no chunks
 * @buf: where to write, 4-byte aligned
 * @len: room at @buf, in bytes
 * @xid: rdma_xid, in wire order
 * @credits: rdma_credit to grant or ask for
 *
 * The header of a message sent wholly inline, such as a backward-direction
 * call (RFC 8167, Section 4.2): the fixed part and three empty lists.
 *
 * Return values:
 *   %XR_HDR_MIN_SIZE: bytes written
 *   %-EMSGSIZE: the header does not fit in @len bytes; nothing written
 *   %-EINVAL: @buf not 4-byte aligned
 */
int xr_hdr_encode_msg(void *buf, size_t len, __be32 xid, u32 credits)
{
	__be32 *p = buf;

	if (!xr_aligned(buf))
		return -EINVAL;
	if (len < XR_HDR_MIN_SIZE)
		return -EMSGSIZE;
	*p++ = xid;
	*p++ = cpu_to_be32(XR_VERSION);
	*p++ = cpu_to_be32(credits);
	*p++ = cpu_to_be32(XR_RDMA_MSG);
	*p++ = 0;
	*p++ = 0;
	*p = 0;
	return XR_HDR_MIN_SIZE;
}

/**
 * xr_chunk_length - total bytes a chunk's segments describe
 * @segs: the chunk's segments
 * @nsegs: how many
 * @length: set to the sum on success
 *
 * Return values:
 *   %0: @length is set
 *   %-EOVERFLOW: the sum does not fit in 32 bits
 */
int xr_chunk_length(const struct xr_seg *segs, u32 nsegs, u32 *length)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < nsegs; i++)
		sum += segs[i].sg_length;
	if (sum > U32_MAX)
		return -EOVERFLOW;
	*length = (u32)sum;
	return 0;
}

/**
 * xr_chunk_fill - record how much a responder wrote into a chunk
 * @segs: the chunk's segments, as the requester offered them
 * @nsegs: how many
 * @written: bytes written, filling the segments in order
 *
 * Sets each segment length to what was written there: the leading
 * segments keep their length, one may be partly filled, the rest become
 * zero (RFC 8166, Sections 3.4.6 and 4.3.2). Nothing changes on error.
 *
 * Return values:
 *   %0: the lengths are updated
 *   %-EMSGSIZE: @written is more than the chunk holds
 *   %-EOVERFLOW: the chunk's length does not fit in 32 bits
 */
int xr_chunk_fill(struct xr_seg *segs, u32 nsegs, u32 written)
{
	u32 capacity, i;
	int ret;

	ret = xr_chunk_length(segs, nsegs, &capacity);
	if (ret)
		return ret;
	if (written > capacity)
		return -EMSGSIZE;
	for (i = 0; i < nsegs; i++) {
		if (segs[i].sg_length > written)
			segs[i].sg_length = written;
		written -= segs[i].sg_length;
	}
	return 0;
}
